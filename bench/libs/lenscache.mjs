// lenscache through a real Redux store: every write is a thunk, one action, the real reducer.
import { configureStore } from '@reduxjs/toolkit';
import * as built from '../../dist/esm/index.js';
import { models } from '../models.mjs';

export const name = 'lenscache';

/**
 * The adapter over one build of lenscache (its ES module namespace): `npm run bench` measures
 * dist/, and bench/ab.mjs loads two builds side by side, each with its own classes and schemas.
 */
export function adapterFor(lib) {
  const { Collection, createCache, denormalize, Values } = lib;

  const { User, Post, sorted, count, groupBy, LensPost, lensScalar } = models(lib);
  const posts = new Collection([Post], { argsKey: () => ({}) });
  const getPosts = { key: () => 'GET /posts', schema: posts };
  // The same endpoint for `cache.fetch`, its request answered at once with the response in hand.
  let answer;
  const fetchPosts = { ...getPosts, fetch: () => Promise.resolve(answer) };
  const lensPosts = new Collection([LensPost], { argsKey: () => ({}) });
  // The stored list's pk (the result a fetch of the list would have stored): what denormalize reads from.
  const lensListPk = lensPosts.pk(undefined, undefined, undefined, [{}]);
  const cellsByPost = new Values(lensScalar);
  const getColumns = { key: ({ lens }) => `GET /columns?lens=${lens}`, schema: new Values(lensScalar) };

  function create() {
    let cache;
    let store;
    let list = posts;
    let reader;
    const reset = () => {
      cache = createCache();
      store = configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });
      reader = cache;
    };
    reset();
    const fetchWrite = response => {
      // As an app's first load writes: the thunk, its request, the write and the read it resolves to.
      reset();
      list = posts;
      answer = response;
      return store.dispatch(cache.fetch(fetchPosts));
    };
    return {
      write(response) {
        reset();
        list = posts;
        store.dispatch(cache.setResponse(getPosts, response));
      },
      fetchWrite,
      async fetchThenRead(response) {
        await fetchWrite(response);
        return reader.selectQuery(store.getState(), list);
      },
      rewrite(response) {
        store.dispatch(cache.setResponse(getPosts, response));
      },
      read: () => reader.selectQuery(store.getState(), list),
      denormalize() {
        // The pure read: nothing kept, nothing reused (what a server render or a script pays).
        const slice = store.getState().cache;
        return denormalize(posts, slice.endpoints[getPosts.key()], [], slice);
      },
      resetMemo() {
        // Another cache instance over the same state starts with empty memo caches.
        reader = createCache();
      },
      updatePost(id, title) {
        store.dispatch(cache.set(Post, { id, title }));
      },
      updateUser(id, name) {
        store.dispatch(cache.set(User, { id, name }));
      },
      sorted: () => reader.selectQuery(store.getState(), sorted),
      count: () => reader.selectQuery(store.getState(), count),
      groupBy: () => reader.selectQuery(store.getState(), groupBy),
      writeLensList(response) {
        reset();
        list = lensPosts;
        store.dispatch(cache.set(lensPosts, {}, response));
      },
      writeColumns(lens, columns) {
        store.dispatch(cache.setResponse(getColumns, { lens }, columns));
      },
      updateCell(lens, id, score) {
        store.dispatch(cache.set(cellsByPost, { lens }, { [id]: { score } }));
      },
      readLens: lens => reader.selectQuery(store.getState(), lensPosts, { lens }),
      denormalizeLens(lens) {
        const slice = store.getState().cache;
        return denormalize(lensPosts, lensListPk, [{ lens }], slice);
      },
    };
  }
  return create;
}

export const create = adapterFor(built);

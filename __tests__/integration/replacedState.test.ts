/**
 * State replaced from outside while a guess is pending (docs/mutations.md, "State replaced from
 * outside"): next-redux-wrapper's HYDRATE, redux-persist's REHYDRATE or a DevTools import puts a
 * new slice in place. The pending guesses are rebased on it: an answer or a rollback that lands
 * later never writes back a row from before the replacement.
 */
import { configureStore, type UnknownAction } from '@reduxjs/toolkit';
import { createCache, Entity, type CacheState, type EndpointLike } from '../../src/index';

class Post extends Entity {
  id = '';
  title = '';
  likes = 0;
  static override key = 'Post';
}

const HYDRATE = '__NEXT_REDUX_WRAPPER_HYDRATE__';

function setup() {
  const cache = createCache();
  // The app's root reducer replaces the cache slice with the server's, as next-redux-wrapper does.
  const cacheReducer = cache.reducer;
  const store = configureStore({
    reducer: (state: { cache: CacheState } | undefined, action: UnknownAction) =>
      action.type === HYDRATE
        ? { cache: (action.payload as { cache: CacheState }).cache }
        : { cache: cacheReducer(state?.cache, action) },
    middleware: getDefault => getDefault().concat(cache.middleware),
  });
  let answer: { resolve(value: unknown): void; reject(error: unknown): void } | undefined;
  const like: EndpointLike = {
    key: (params: { id: string }) => `POST /posts/${params.id}/like`,
    schema: Post,
    sideEffect: true,
    fetch: () => new Promise((resolve, reject) => (answer = { resolve, reject })),
    getOptimisticResponse: (snap, params: { id: string }) => {
      const post = snap.get(Post, params) as Post | undefined;
      return post && { id: params.id, likes: post.likes + 1 };
    },
  };
  const getPost: EndpointLike = { key: (params: { id: string }) => `GET /posts/${params.id}`, schema: Post };
  const post = () => cache.selectQuery(store.getState(), Post, { id: '1' }) as Post | undefined;
  /** The server's state, rendered on the server: another store's slice, as JSON. */
  const serverSlice = (title: string, likes: number) => {
    const server = createCache();
    const other = configureStore({
      reducer: { cache: server.reducer },
      middleware: d => d().concat(server.middleware),
    });
    other.dispatch(server.setResponse(getPost, { id: '1' }, { id: '1', title, likes }));
    return JSON.parse(JSON.stringify(other.getState().cache)) as CacheState;
  };
  const until = async () => {
    for (let i = 0; i < 20 && !answer; i++) await Promise.resolve();
  };
  return { cache, store, like, getPost, post, serverSlice, answer: () => answer!, until };
}

test('a like answered after a hydration keeps the hydrated title', async () => {
  const { cache, store, like, getPost, post, serverSlice, answer, until } = setup();
  store.dispatch(cache.setResponse(getPost, { id: '1' }, { id: '1', title: 'old', likes: 1 }));
  const liking = store.dispatch(cache.fetch(like, { id: '1' }));
  await until();
  expect(post()).toMatchObject({ title: 'old', likes: 2 });
  store.dispatch({ type: HYDRATE, payload: { cache: serverSlice('new', 5) } });
  // The guess is shown over the new state at once.
  expect(post()).toMatchObject({ title: 'new', likes: 6 });
  answer().resolve({ id: '1', likes: 6 });
  await liking;
  expect(post()).toMatchObject({ title: 'new', likes: 6 });
});

test('a like that fails after a hydration takes only itself back', async () => {
  const { cache, store, like, getPost, post, serverSlice, answer, until } = setup();
  store.dispatch(cache.setResponse(getPost, { id: '1' }, { id: '1', title: 'old', likes: 1 }));
  const liking = store.dispatch(cache.fetch(like, { id: '1' }));
  await until();
  store.dispatch({ type: HYDRATE, payload: { cache: serverSlice('new', 5) } });
  answer().reject(Object.assign(new Error('refused'), { status: 400 }));
  await liking.catch(() => undefined);
  expect(post()).toMatchObject({ title: 'new', likes: 5 });
});

test('a replacement the middleware does not see (a DevTools jump, replaceReducer) is found when the answer lands', async () => {
  const { cache, store, like, getPost, post, serverSlice, answer, until } = setup();
  store.dispatch(cache.setResponse(getPost, { id: '1' }, { id: '1', title: 'old', likes: 1 }));
  const liking = store.dispatch(cache.fetch(like, { id: '1' }));
  await until();
  const replacement = serverSlice('new', 5);
  // replaceReducer dispatches its own action to the store below the middleware.
  store.replaceReducer(((state: { cache: CacheState } | undefined, action: UnknownAction) =>
    action.type.startsWith('@@redux/REPLACE')
      ? { cache: replacement }
      : { cache: cache.reducer(state?.cache, action) }) as never);
  answer().reject(Object.assign(new Error('refused'), { status: 400 }));
  await liking.catch(() => undefined);
  expect(post()).toMatchObject({ title: 'new', likes: 5 });
});

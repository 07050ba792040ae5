/** Type tests for RestEndpoint and the fetch thunks: args from path and searchParams, results from the schema. */
import { configureStore } from '@reduxjs/toolkit';
import {
  Collection,
  createCache,
  Entity,
  isNetworkError,
  NetworkError,
  RestEndpoint,
  type FetchPromise,
  type PathParams,
  type SweepReport,
} from '../../src/index';
import { expectType, type Equal } from './expect';

class Post extends Entity {
  id = '';
  title = '';
}

const getPosts = new RestEndpoint({
  path: '/:group/posts',
  searchParams: {} as { orderBy?: string },
  schema: new Collection([Post]),
});
const getPost = new RestEndpoint({ path: '/posts/:id', schema: Post });
const getUsers = new RestEndpoint({ path: '/users' });

expectType<Equal<PathParams<'/:group/posts'>, { group: string | number | bigint | boolean }>>(true);
expectType<Equal<PathParams<'/files{/:folder}'>, { folder?: string | number | bigint | boolean | null | undefined }>>(
  true,
);

getPosts.url({ group: 'react', orderBy: 'title' });
// @ts-expect-error the path param is required
getPosts.url({ orderBy: 'title' });
// @ts-expect-error searchParams are typed
getPosts.url({ group: 'react', orderBy: 1 });
getUsers.url();
getPost.key({ id: 1 });

const cache = createCache();
const store = configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });

const list = store.dispatch(cache.fetch(getPosts, { group: 'react' }));
expectType<Equal<typeof list, FetchPromise<Post[]>>>(true);
const one = store.dispatch(cache.fetch(getPost, { id: '1' }));
expectType<Equal<typeof one, FetchPromise<Post>>>(true);
const raw = store.dispatch(cache.fetch(getUsers));
expectType<Equal<typeof raw, FetchPromise<unknown>>>(true);
// @ts-expect-error args are checked against the endpoint
store.dispatch(cache.fetch(getPost, { key: '1' }));

const created = store.dispatch(cache.fetch(getPosts.push, { group: 'react' }, { title: 'New' }));
expectType<Equal<typeof created, FetchPromise<Post>>>(true);
const viaController = cache.controller(store).fetch(getPosts.push, { group: 'react' }, [{ title: 'A' }]);
expectType<Equal<typeof viaController, FetchPromise<Post[]>>>(true);

const response = cache.selectResponse(store.getState(), getPost, { id: '1' });
expectType<Equal<typeof response.data, Post | undefined>>(true);
cache.selectResponse(store.getState(), getPost, null);

const controller = cache.controller(store);
expectType<Equal<ReturnType<typeof controller.fetch<typeof getPosts>>, FetchPromise<Post[]>>>(true);

// Garbage collection: retain takes the endpoint's args (or null) and gives a release; gc reports.
const release = cache.retain(store, getPost, { id: '1' });
expectType<Equal<typeof release, () => void>>(true);
cache.retain(store, getPost, null);
// @ts-expect-error args are checked against the endpoint
cache.retain(store, getPost, { key: '1' });
const swept = cache.gc(store);
expectType<Equal<typeof swept, SweepReport>>(true);
const thunkSwept = store.dispatch(cache.gc());
expectType<Equal<typeof thunkSwept, SweepReport>>(true);
// @ts-expect-error gcTime is milliseconds
createCache({ gcTime: '5m' });
// @ts-expect-error the expiry defaults are milliseconds
createCache({ dataExpiryLength: '1m' });
// The reset on 401: the callback gets the error and the store's Controller of this cache.
const resetting = createCache({
  reducerPath: 'api',
  errorExpiryLength: 0,
  onUnauthorized: (error, controller) => {
    expectType<Equal<typeof error, unknown>>(true);
    expectType<Equal<typeof controller, ReturnType<typeof resetting.controller>>>(true);
  },
  isUnauthorized: error => isNetworkError(error) && error.status === 401,
});
// @ts-expect-error onUnauthorized is a function
createCache({ onUnauthorized: '/login' });
expectType<Equal<typeof getPost.invalidIfStale, boolean>>(true);
// @ts-expect-error invalidIfStale is a boolean
new RestEndpoint({ path: '/posts', invalidIfStale: 'yes' });

// Params are the path's and the searchParams marker's, and no others.
getPost.url({ id: '1' });
// @ts-expect-error a key that is neither a path param nor a search param
getPost.url({ id: '1', foo: 1 });
// @ts-expect-error an endpoint without params takes none
getUsers.url({ page: 1 });
getUsers.url({});
// @ts-expect-error a misspelt search param
getPosts.url({ group: 'react', orderby: 'title' });
// @ts-expect-error args are checked against the endpoint, unknown keys too
store.dispatch(cache.fetch(getPost, { id: '1', include: 'author' }));
// An optional path part may be given as undefined: it is left out.
const getFiles = new RestEndpoint({ path: '/files{/:folder}' });
declare const folder: string | undefined;
getFiles.url({ folder });

// A create reads back in the shape it was sent: its body type decides for cache.fetch.
const createPost = getPosts.push.extend({ body: {} as { title: string } });
const createdOne = store.dispatch(cache.fetch(createPost, { group: 'react' }, { title: 'New' }));
expectType<Equal<typeof createdOne, FetchPromise<Post>>>(true);
const createPosts = getPosts.push.extend({ body: [] as { title: string }[] });
const createdMany = store.dispatch(cache.fetch(createPosts, { group: 'react' }, [{ title: 'New' }]));
expectType<Equal<typeof createdMany, FetchPromise<Post[]>>>(true);
const prepended = store.dispatch(
  cache.fetch(getPosts.unshift.extend({ body: {} as { title: string } }), { group: 'react' }, { title: 'x' }),
);
expectType<Equal<typeof prepended, FetchPromise<Post>>>(true);

// A wrapped response's other members read as what the server sends: a lone literal widens.
const getFeed = new RestEndpoint({
  path: '/feed',
  schema: {
    results: new Collection([Post]),
    total: 0,
    next: '',
    done: false,
    state: 'open' as 'open' | 'closed',
    cursor: null as string | null,
  },
});
const feed = store.dispatch(cache.fetch(getFeed));
expectType<
  Equal<
    typeof feed,
    FetchPromise<{
      readonly results: Post[];
      readonly total: number;
      readonly next: string;
      readonly done: boolean;
      readonly state: 'open' | 'closed';
      readonly cursor: string | null;
    }>
  >
>(true);

// A refusal's body: unknown on the class, typed through a check.
const isRefusal = (body: unknown): body is { message: string } =>
  typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string';
declare const failure: unknown;
if (isNetworkError(failure, isRefusal)) {
  expectType<Equal<typeof failure.body, { message: string }>>(true);
  expectType<Equal<typeof failure.status, number | undefined>>(true);
}
if (isNetworkError(failure)) expectType<Equal<typeof failure.body, unknown>>(true);
if (failure instanceof NetworkError) expectType<Equal<typeof failure.body, unknown>>(true);

// `content` types what a request answers with, through endpoint.fetch and the cache alike.
const file = new RestEndpoint({ path: '/files/:id', content: 'blob' });
expectType<Equal<Awaited<ReturnType<typeof file.fetch>>, Blob>>(true);
expectType<Equal<typeof file.sideEffect, true>>(true);
const blob = store.dispatch(cache.fetch(file, { id: 1 }));
expectType<Equal<typeof blob, FetchPromise<Blob>>>(true);
const bytes = cache.controller(store).fetch(file.extend({ content: 'arrayBuffer' }), { id: 1 });
expectType<Equal<typeof bytes, FetchPromise<ArrayBuffer>>>(true);
const stream = store.dispatch(cache.fetch(file.extend({ content: 'stream' }), { id: 1 }));
expectType<Equal<typeof stream, FetchPromise<ReadableStream<Uint8Array>>>>(true);
const text = new RestEndpoint({ path: '/notes', content: 'text' });
expectType<Equal<typeof text.sideEffect, false>>(true);
expectType<Equal<Awaited<ReturnType<typeof text.fetch>>, string>>(true);
expectType<Equal<typeof text.content, 'text'>>(true);
const stored = store.dispatch(cache.fetch(text));
expectType<Equal<typeof stored, FetchPromise<string>>>(true);
expectType<Equal<Awaited<ReturnType<typeof getUsers.fetch>>, unknown>>(true);
const json = new RestEndpoint({ path: '/notes', content: 'json', schema: Post });
expectType<Equal<typeof json.sideEffect, false>>(true);
// @ts-expect-error content is one of json, text, blob, arrayBuffer, stream
new RestEndpoint({ path: '/notes', content: 'xml' });

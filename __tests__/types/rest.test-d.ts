/** Type tests for RestEndpoint and the fetch thunks: args from path and searchParams, results from the schema. */
import { configureStore } from '@reduxjs/toolkit';
import {
  Collection,
  createCache,
  Entity,
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
expectType<Equal<PathParams<'/files{/:folder}'>, { folder?: string | number | bigint | boolean }>>(true);

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
expectType<Equal<typeof created, FetchPromise<Post | Post[]>>>(true);

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

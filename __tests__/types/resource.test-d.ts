/** Type tests for resource() and endpoint.getPage: params from the path, the list path, what pages read as. */
import { configureStore } from '@reduxjs/toolkit';
import {
  Collection,
  createCache,
  Entity,
  resource,
  RestEndpoint,
  type FetchPromise,
  type ListPath,
  type PathValue,
} from '../../src/index';
import { expectType, type Equal } from './expect';

class Post extends Entity {
  id = '';
  title = '';
  group = '';
}

expectType<Equal<ListPath<'/:group/posts/:id'>, '/:group/posts'>>(true);
expectType<Equal<ListPath<'/posts/:id'>, '/posts'>>(true);
expectType<Equal<ListPath<'/:id'>, '/'>>(true);

const posts = resource({
  path: '/:group/posts/:id',
  schema: Post,
  searchParams: {} as { orderBy?: 'title' },
  paginationField: 'cursor',
});

const cache = createCache();
const store = configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });

// Item endpoints take every path param; the list only the list path's params and the search params.
posts.get.url({ group: 'react', id: '1' });
// @ts-expect-error the item's id is required
posts.get.url({ group: 'react' });
posts.getList.url({ group: 'react', orderBy: 'title' });
// @ts-expect-error search params are typed
posts.getList.url({ group: 'react', orderBy: 'date' });
// @ts-expect-error the list needs its group
posts.getList.url({ orderBy: 'title' });
expectType<Equal<Parameters<typeof posts.getList.url>[0], { group: PathValue } & { orderBy?: 'title' }>>(true);

const one = store.dispatch(cache.fetch(posts.get, { group: 'react', id: '1' }));
expectType<Equal<typeof one, FetchPromise<Post>>>(true);
const list = store.dispatch(cache.fetch(posts.getList, { group: 'react' }));
expectType<Equal<typeof list, FetchPromise<Post[]>>>(true);
const created = store.dispatch(cache.fetch(posts.getList.push, { group: 'react' }, { title: 'New' }));
expectType<Equal<typeof created, FetchPromise<Post>>>(true);
// A list sent: a list back.
const createdMany = store.dispatch(
  cache.fetch(posts.getList.push, { group: 'react' }, [{ title: 'A' }, { title: 'B' }]),
);
expectType<Equal<typeof createdMany, FetchPromise<Post[]>>>(true);
// @ts-expect-error unknown params keys are still refused
store.dispatch(cache.fetch(posts.getList.push, { group: 'react', nope: 1 }, { title: 'New' }));
// Update bodies are the entity's fields.
store.dispatch(cache.fetch(posts.update, { group: 'react', id: '1' }, { title: 'x', group: 'react' }));
store.dispatch(cache.fetch(posts.partialUpdate, { group: 'react', id: '1' }, { title: 'x' }));
// @ts-expect-error a field the entity does not have
store.dispatch(cache.fetch(posts.partialUpdate, { group: 'react', id: '1' }, { titel: 'x' }));
const deleted = store.dispatch(cache.fetch(posts.delete, { group: 'react', id: '1' }));
expectType<Equal<typeof deleted, FetchPromise<Post>>>(true);
expectType<Equal<typeof posts.delete.sideEffect, true>>(true);

// A page: the list's params plus the page field, which is required; it reads as its items.
const page = store.dispatch(cache.fetch(posts.getList.getPage, { group: 'react', cursor: '2' }));
expectType<Equal<typeof page, FetchPromise<Post[]>>>(true);
// @ts-expect-error a page needs its cursor
store.dispatch(cache.fetch(posts.getList.getPage, { group: 'react' }));

// An object response keeps its other members: `nextCursor` reads from the list and from each page.
const getFeed = new RestEndpoint({
  path: '/feed',
  schema: { results: new Collection([Post]), nextCursor: '' as string | null },
  paginationField: 'page',
});
const feedPage = store.dispatch(cache.fetch(getFeed.getPage, { page: 2 }));
expectType<Equal<typeof feedPage, FetchPromise<{ readonly results: Post[]; readonly nextCursor: string | null }>>>(
  true,
);
const feed = store.dispatch(cache.fetch(getFeed));
expectType<Equal<typeof feed, FetchPromise<{ readonly results: Post[]; readonly nextCursor: string | null }>>>(true);
// push finds the Collection inside the object response.
const pushed = store.dispatch(cache.fetch(getFeed.push, {}, { title: 'x' }));
expectType<Equal<typeof pushed, FetchPromise<Post>>>(true);

// The list's Collection options: argsKey and nonFilterArgumentKeys, typed as Collection's.
const grouped = resource({
  path: '/:group/posts/:id',
  schema: Post,
  searchParams: {} as { view?: 'compact' },
  collection: { argsKey: ({ group }: { group: string }) => ({ group }), nonFilterArgumentKeys: ['view'] },
});
grouped.getList.url({ group: 'react', view: 'compact' });
expectType<Equal<typeof grouped.getList.schema, Collection<readonly [typeof Post]>>>(true);
// @ts-expect-error nestKey is for a Collection inside an entity, not a resource's list
resource({ path: '/posts/:id', schema: Post, collection: { nestKey: () => ({}) } });
// @ts-expect-error argsKey returns the object that names the list
resource({ path: '/posts/:id', schema: Post, collection: { argsKey: () => 'all' } });
// The extended list keeps the optimistic push.
const optimisticPosts = resource({ path: '/:group/posts/:id', schema: Post, optimistic: true });
const wrapped = optimisticPosts.getList.extend({ schema: { results: optimisticPosts.getList.schema } });
expectType<Equal<typeof wrapped.push.sideEffect, true>>(true);

// Type-checked by scripts/check-package.sh in a scratch project where lenscache is installed from
// its tarball, as consumer.ts (node10, bundler), consumer.mts (ES module) and consumer.cts
// (CommonJS) under node16 and nodenext. It uses both entry points and the inferred types, so a
// declaration that does not resolve, or resolves to `any`, fails the check.
import { configureStore } from '@reduxjs/toolkit';
import {
  Collection,
  createCache,
  Entity,
  LensCacheError,
  Query,
  RestEndpoint,
  Scalar,
  schema,
  type Denormalize,
} from 'lenscache';
import { CacheProvider, useQuery, useSuspense } from 'lenscache/react';

class User extends Entity {
  id = '';
  name = '';
  static override key = 'User';
}

class Post extends Entity {
  id = '';
  title = '';
  author = User.fromJS();
  static override key = 'Post';
  static override schema = { author: User };
}

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

const getPosts = new RestEndpoint({ path: '/:group/posts', schema: new Collection([Post]) });
const titles = new Query(new schema.All(Post), (posts: Post[]) => posts.map(post => post.title));
const holding = new Scalar({
  lens: args => (args[0] as { portfolio?: string } | undefined)?.portfolio,
  key: 'holding',
  entity: Post,
});

const post: Post | undefined = cache.selectQuery(store.getState(), Post, '1');
const list: Denormalize<typeof getPosts.schema> | undefined = cache.selectResponse(store.getState(), getPosts, {
  group: 'react',
}).data;
const authorName: string | undefined = post?.author.name;

// Hooks are only type-checked here, never called.
function usePostTitles(group: string): string[] {
  const posts: Post[] = useSuspense(getPosts, { group });
  const sorted: string[] | undefined = useQuery(titles);
  return sorted ?? posts.map(one => one.title);
}

export const used = [list, authorName, holding, usePostTitles, CacheProvider, LensCacheError.name];

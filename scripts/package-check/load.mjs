// Loads both entry points of the installed package as an ES module (scripts/check-package.sh).
import { createCache, Entity, RestEndpoint } from 'lenscache';
import * as react from 'lenscache/react';
import * as testing from 'lenscache/test';
import assert from 'node:assert/strict';

class User extends Entity {
  id = '';
  static key = 'User';
}
const cache = createCache();
assert.equal(cache.reducerPath, 'cache');
assert.equal(new RestEndpoint({ path: '/users/:id', schema: User }).url({ id: '1' }), '/users/1');
for (const hook of [
  'CacheProvider',
  'useQuery',
  'useSuspense',
  'useFetch',
  'useCache',
  'useController',
  'useSubscription',
  'useLive',
  'useStream',
]) {
  assert.equal(typeof react[hook], 'function', `lenscache/react exports ${hook}`);
}
for (const helper of ['mockFetch', 'mockInitialState', 'renderWithCache', 'renderCacheHook']) {
  assert.equal(typeof testing[helper], 'function', `lenscache/test exports ${helper}`);
}
console.log('ESM: lenscache, lenscache/react and lenscache/test load');

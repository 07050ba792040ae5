// Counts what RTK's development checks print (immutability, serializability, and their "took
// longer than 32ms" timing warnings) while a store with the cache takes a first load, an identical
// refetch and a changed refetch. Timing depends on the machine, so this is a script, not a test.
// Run: npm run dev-checks
import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity } from '../dist/esm/index.js';

class User extends Entity { id = ''; name = ''; static key = 'User'; }
class Comment extends Entity { id = ''; body = ''; author = User.fromJS(); static key = 'Comment'; static schema = { author: User }; }
class Post extends Entity {
  id = ''; title = ''; author = User.fromJS(); comments = [];
  static key = 'Post'; static schema = { author: User, comments: [Comment] };
}

const posts = (n, users, suffix = '') =>
  Array.from({ length: n }, (_, i) => ({
    id: `p${i}`, title: `Post ${i}${suffix}`, author: { id: `u${i % users}`, name: `User ${i % users}` },
    comments: [0, 1].map(j => ({ id: `c${i}-${j}`, body: `Comment ${j}`, author: { id: `u${(i + j + 1) % users}`, name: `User ${(i + j + 1) % users}` } })),
  }));

const messages = [];
for (const method of ['warn', 'error']) console[method] = (...args) => messages.push(`${method}: ${String(args[0]).split('\n')[0]}`);

for (const [n, users] of [[300, 100], [1000, 100]]) {
  const cache = createCache();
  const store = configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });
  const endpoint = { key: () => 'GET /posts', schema: [Post] };
  const entities = 3 * n + users;
  for (const [label, data] of [['first load', posts(n, users)], ['identical refetch', posts(n, users)], ['changed refetch', posts(n, users, ' (edited)')]]) {
    messages.length = 0;
    const start = performance.now();
    store.dispatch(cache.setResponse(endpoint, data));
    const ms = performance.now() - start;
    process.stdout.write(`${entities} entities, ${label}: dispatch with dev checks ${ms.toFixed(1)} ms; ${messages.length ? messages.join(' | ') : 'nothing printed'}\n`);
  }
}

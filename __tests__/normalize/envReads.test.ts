/**
 * `process.env` is slow to read in Node (each read asks the environment), so in a production
 * build run unbundled (Node, or tests of an app) the write walk never reads it per entity: the
 * development checks in hot paths test the flag `base/env.ts` read once, before the literal test
 * bundlers fold. A write of many entities reads `NODE_ENV` a bounded number of times.
 */
import { configureStore } from '@reduxjs/toolkit';

test('in production, writing 300 entities reads process.env.NODE_ENV a bounded number of times', () => {
  const saved = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  let lib!: typeof import('../../src/index');
  try {
    jest.isolateModules(() => {
      lib = require('../../src/index');
    });
  } finally {
    process.env.NODE_ENV = saved;
  }
  class Author extends lib.Entity {
    id = '';
    name = '';
    static override key = 'EnvAuthor';
  }
  class Note extends lib.Entity {
    id = '';
    text = '';
    author = Author.fromJS();
    static override key = 'EnvNote';
    static override schema = { author: Author };
  }
  const cache = lib.createCache();
  const store = configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });
  const notes = Array.from({ length: 150 }, (_, i) => ({
    id: String(i),
    text: `n${i}`,
    author: { id: `a${i}`, name: 'Ann' },
  }));
  // Warm up: the classes' facts are computed once.
  store.dispatch(cache.set([Note], notes.slice(0, 1)));
  const env = process.env;
  let reads = 0;
  process.env = new Proxy(env, {
    get(target, name, receiver) {
      if (name === 'NODE_ENV') reads++;
      return Reflect.get(target, name, receiver);
    },
  });
  try {
    store.dispatch(cache.set([Note], notes));
  } finally {
    process.env = env;
  }
  expect(cache.selectQuery(store.getState(), Note, '149')?.author.id).toBe('a149');
  expect(reads).toBeLessThan(20);
});

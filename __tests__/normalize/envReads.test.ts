/**
 * `process.env` is slow to read in Node (each read asks the environment), so in a production
 * build run unbundled (Node, or tests of an app) the write walk never reads it per entity: the
 * development checks in hot paths test the flag `base/env.ts` read once, before the literal test
 * bundlers fold. A write of many entities reads `NODE_ENV` a bounded number of times.
 */
import { configureStore } from '@reduxjs/toolkit';

test('in production, writing and reading 300 entities read process.env.NODE_ENV a bounded number of times', () => {
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
    readers: Author[] = [];
    static override key = 'EnvNote';
    // A list field too: its write and read run per note.
    static override schema = { author: Author, readers: [Author] };
  }
  const cache = lib.createCache();
  const store = configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });
  const notes = Array.from({ length: 150 }, (_, i) => ({
    id: String(i),
    text: `n${i}`,
    author: { id: `a${i}`, name: 'Ann' },
    readers: [{ id: `a${i + 1}`, name: 'Bob' }],
  }));
  // Warm up: the classes' facts are computed once.
  store.dispatch(cache.set([Note], notes.slice(0, 1)));
  /** How many times `run` reads `process.env.NODE_ENV`. */
  const envReads = (run: () => void): number => {
    const env = process.env;
    let reads = 0;
    process.env = new Proxy(env, {
      get(target, name, receiver) {
        if (name === 'NODE_ENV') reads++;
        return Reflect.get(target, name, receiver);
      },
    });
    try {
      run();
    } finally {
      process.env = env;
    }
    return reads;
  };
  expect(envReads(() => store.dispatch(cache.set([Note], notes)))).toBeLessThan(20);
  // The reads too: a cold memoized read of the list, a re-read, and the plain denormalize.
  const list = new lib.Collection([Note], { argsKey: () => ({}) });
  const getNotes = { key: () => 'GET /notes', schema: list };
  store.dispatch(cache.setResponse(getNotes, notes));
  expect(
    envReads(() => {
      const read = cache.selectResponse(store.getState(), getNotes);
      expect((read.data as Note[])[149]?.author.id).toBe('a149');
      cache.selectResponse(store.getState(), getNotes);
      lib.denormalize(
        [Note],
        notes.map(note => note.id),
        [],
        (store.getState() as { cache: import('../../src/index').CacheState }).cache,
      );
    }),
  ).toBeLessThan(20);
});

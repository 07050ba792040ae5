import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, ErrorCode, LensCacheError, NetworkError } from '../../src/index';

const docs = readFileSync(join(__dirname, '../../docs/errors.md'), 'utf8');

test.each(Object.values(ErrorCode))('docs/errors.md has a section for %s', code => {
  expect(docs).toMatch(new RegExp(`^## ${code}$`, 'm'));
});

test('LensCacheError carries its code and status', () => {
  const error = new LensCacheError(ErrorCode.MISSING_PK, 'no pk', 400);
  expect(error).toBeInstanceOf(Error);
  expect(error.code).toBe('MISSING_PK');
  expect(error.status).toBe(400);
});

/** Messages link to this file as it is installed with the package, at the section of their code. */
const link = /\nSee node_modules\/lenscache\/docs\/errors\.md#([a-z_]+)$/;

test('a thrown error ends with a link to its section of the shipped docs/errors.md', () => {
  class Untitled extends Entity {
    id = '';
    static override key = 'Untitled';
  }
  const cache = createCache();
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middleware),
  });
  const before = store.getState();
  let thrown: unknown;
  try {
    store.dispatch(cache.set(Untitled, { name: 'no id' }));
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(LensCacheError);
  const error = thrown as LensCacheError;
  expect(error.message).toMatch(link);
  expect(link.exec(error.message)?.[1]).toBe(error.code.toLowerCase());
  expect(store.getState()).toBe(before);
});

test('a NetworkError links to the network_error section', () => {
  const error = new NetworkError('GET', '/posts', new Response('', { status: 503 }), '');
  expect(link.exec(error.message)?.[1]).toBe('network_error');
  expect(docs).toMatch(/^## NETWORK_ERROR$/m);
});

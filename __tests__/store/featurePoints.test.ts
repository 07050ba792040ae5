/**
 * The features' hook points (docs/features.md, "How a feature plugs in"): features that wrap
 * sending wrap one another in the order they are listed, none taking the place of another; a
 * second feature that computes confirmed writes is refused as the store mounts.
 */

import { configureStore } from '@reduxjs/toolkit';
import { createLeanCache, ErrorCode, optimisticUpdates, retries, type Feature } from '../../src/index';
import { Post } from '../fixtures/schemas';

const post = { id: '1', title: 'post 1', author: { id: 'u1', name: 'Ann' }, comments: [] };

function storeOf(features: readonly Feature[]) {
  const cache = createLeanCache({ features });
  const store = configureStore({
    reducer: { cache: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middleware),
  });
  return { cache, store };
}

test('features that wrap sending wrap one another, in the order listed', async () => {
  const seen: string[] = [];
  // Named as a feature lenscache exports (createLeanCache accepts only those names).
  const wrapping = (name: string): Feature =>
    ({
      name: 'liveData',
      install: () => ({
        sending: async (_request: unknown, send: () => Promise<unknown>) => {
          seen.push(`${name} before`);
          const answer = await send();
          seen.push(`${name} after`);
          return answer;
        },
      }),
    }) as unknown as Feature;
  const { cache, store } = storeOf([retries, wrapping('outer')]);
  let tries = 0;
  const endpoint = {
    key: () => 'GET /posts/1',
    schema: Post,
    retry: { attempts: 2, delay: () => 0 },
    // The first try fails as a server error does, so retries sends it again.
    fetch: async () => {
      if (++tries === 1) throw Object.assign(new Error('unavailable'), { status: 503 });
      return post;
    },
  };
  await store.dispatch(cache.fetch(endpoint));
  // Listed after retries, 'outer' wraps it: it sees one call around both tries. (Before, the first
  // feature that filled the point took it alone, and 'outer' was never called.)
  expect(tries).toBe(2);
  expect(seen).toEqual(['outer before', 'outer after']);
  expect(store.getState().cache.entities.Post?.['1']).toBeDefined();
});

test('a second feature that computes confirmed writes is INVALID_OPTION as the store mounts', () => {
  const writer: Feature = {
    name: 'garbageCollection',
    install: () => ({
      writer: { write: (_visible: unknown, compute: unknown) => ({ computed: undefined, payload: compute as never }) },
    }),
  } as Feature;
  expect(() => storeOf([optimisticUpdates, writer])).toThrow(
    expect.objectContaining({ code: ErrorCode.INVALID_OPTION }),
  );
});

/**
 * @jest-environment jsdom
 */
/**
 * A hook that needs a feature its cache was built without shows FEATURE_MISSING in the nearest
 * error boundary, naming the feature, and sends nothing (docs/features.md).
 */
import { createLeanCache, ErrorCode, type Cache, type LensCacheError } from '../../src/index';
import { useLive, useSubscription, useSuspense } from '../../src/react/index';
import { Post } from '../fixtures/schemas';
import { mountReader, quietErrors, settle } from '../fixtures/render';
import { makeStore } from '../fixtures/store';

function endpoint(options: Record<string, unknown>) {
  const sent: string[] = [];
  return {
    sent,
    endpoint: {
      key: (id: string) => `GET /posts/${id}`,
      schema: Post,
      fetch: async (id: string) => {
        sent.push(id);
        return { id, title: 'post', author: { id: 'u1', name: 'Ann' }, comments: [] };
      },
      ...options,
    },
  };
}

/** The hooks under test, called loosely: the endpoints here are plain objects. */
const call = (hook: unknown, e: unknown) => () => (hook as (...args: unknown[]) => unknown)(e, '1');

test.each([
  ['useSuspense of an endpoint with retry', 'retries', (e: unknown) => call(useSuspense, e)],
  ['useLive on a cache without live data', 'liveData', (e: unknown) => call(useLive, e)],
  ['useSubscription on a cache without live data', 'liveData', (e: unknown) => call(useSubscription, e)],
])('%s: FEATURE_MISSING in the error boundary, naming %s, and nothing sent', async (_, feature, hook) => {
  const quiet = quietErrors();
  try {
    const setup = makeStore({}, { cache: createLeanCache() as Cache });
    const { endpoint: e, sent } = endpoint(
      feature === 'retries' ? { retry: { attempts: 2 } } : { pollFrequency: 1_000 },
    );
    // (useLive and useSubscription of a plain endpoint: the read itself needs nothing.)
    if (feature === 'liveData')
      setup.store.dispatch(
        setup.cache.setResponse(e, '1', { id: '1', title: 'post', author: { id: 'u1', name: 'Ann' }, comments: [] }),
      );
    const { caught } = mountReader(hook(e), setup);
    await settle();
    expect(caught).toHaveLength(1);
    expect((caught[0] as LensCacheError).code).toBe(ErrorCode.FEATURE_MISSING);
    expect(caught[0]!.message).toContain(feature);
    expect(sent).toEqual([]);
  } finally {
    quiet.mockRestore();
  }
});

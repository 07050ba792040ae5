/**
 * @jest-environment jsdom
 */
/** Mounted hooks keep what they read from garbage collection; unmount, sweep, remount refetches (docs/gc.md). */
import { act, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { All, Entity, Query, type Cache, type CacheState, type StoreLike, type SweepReport } from '../../src/index';
import { useFetch, useQuery, useSuspense, useCache } from '../../src/react/index';
import { renderWithCache } from '../fixtures/render';
import { makeStore } from '../fixtures/store';

class Item extends Entity {
  id = '';
  name = '';
  static override key = 'Item';
}
const itemCount = new Query(new All(Item), items => items.length);

function endpointCounting() {
  const calls: string[] = [];
  const getItem = {
    key: (params: { id: string }) => `GET /items/${params.id}`,
    schema: Item,
    fetch: (params: { id: string }) => {
      calls.push(params.id);
      return Promise.resolve({ id: params.id, name: `${params.id} #${calls.length}` });
    },
  };
  return { calls, getItem };
}

/** A sweep now, inside act (its action may re-render mounted hooks). */
function sweep(cache: Cache, store: StoreLike): SweepReport {
  let report: SweepReport | undefined;
  act(() => {
    report = cache.gc(store);
  });
  return report!;
}

test('useSuspense holds its response while mounted; unmount, sweep, remount fetches it again', async () => {
  const setup = makeStore({ gcTime: 0 });
  const { cache, store } = setup;
  const { calls, getItem } = endpointCounting();
  const slice = () => store.getState().cache as CacheState;
  function View({ id }: { id: string }) {
    return <p>{useSuspense(getItem, { id }).name}</p>;
  }
  const view = renderWithCache(
    <Suspense fallback="loading">
      <View id="a" />
    </Suspense>,
    { setup },
  );
  expect(await screen.findByText('a #1')).toBeTruthy();
  expect(sweep(cache, store)).toEqual({ requests: 0, rows: 0 });
  expect(slice().endpoints['GET /items/a']).toBe('a');
  expect(screen.getByText('a #1')).toBeTruthy();

  act(() => view.rerender(<Suspense fallback="loading" />));
  // Just written, the response is kept a moment whatever gcTime; released, it goes at once.
  expect(sweep(cache, store)).toEqual({ requests: 1, rows: 1 });
  expect(slice().endpoints).toEqual({});
  view.rerender(
    <Suspense fallback="loading">
      <View id="a" />
    </Suspense>,
  );
  expect(await screen.findByText('a #2')).toBeTruthy();
  expect(calls).toEqual(['a', 'a']);
});

test('useFetch, useCache and useQuery hold what they read too', async () => {
  const setup = makeStore({ gcTime: 0 });
  const { cache, store } = setup;
  const { getItem } = endpointCounting();
  const slice = () => store.getState().cache as CacheState;
  await store.dispatch(cache.fetch(getItem, { id: 'c' }));
  await store.dispatch(cache.fetch(getItem, { id: 'q' }));
  function Readers() {
    useFetch(getItem, { id: 'f' });
    useCache(getItem, { id: 'c' });
    const count = useQuery(itemCount);
    return <p>{String(count)}</p>;
  }
  const view = renderWithCache(<Readers />, { setup });
  await act(async () => {});
  // Past the moment a response just written is kept whatever gcTime.
  const now = Date.now();
  jest.spyOn(Date, 'now').mockReturnValue(now + 2_000);
  // The Query reads every Item row the store has, so all of them stay; only `q`'s response goes.
  expect(sweep(cache, store)).toEqual({ requests: 1, rows: 0 });
  expect(Object.keys(slice().endpoints).sort()).toEqual(['GET /items/c', 'GET /items/f']);
  view.unmount();
  expect(sweep(cache, store)).toEqual({ requests: 2, rows: 3 });
  expect(slice().entities.Item).toEqual({});
  jest.restoreAllMocks();
});

/**
 * What the read memo keeps goes with what it describes (docs/gc.md, "Outside the state"): a
 * collected response's reads are forgotten, and a reset forgets every read. Observed as identity:
 * a remembered read of the very same state returns the very same object; a forgotten one is built
 * again.
 */
import { Entity } from '../../src/index';
import { Reader } from '../../src/memo/Reader';
import { makeStore } from '../fixtures/store';
import type { CacheState } from '../../src/index';

class Item extends Entity {
  id = '';
  name = '';
  static override key = 'Item';
}
const getItem = { key: (id: string) => `GET /items/${id}`, schema: Item };

test('Reader.forget drops the reads of one schema and args; Reader.clear drops them all', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getItem, '1', { id: '1', name: 'one' }));
  store.dispatch(cache.setResponse(getItem, '2', { id: '2', name: 'two' }));
  const state = store.getState().cache as CacheState;
  const reader = new Reader({ argsCacheSize: 10, lensCacheSize: 4, maxEntityDepth: 64 });
  const one = reader.query(state, Item, ['1']);
  const two = reader.query(state, Item, ['2']);
  expect(reader.query(state, Item, ['1'])).toBe(one);
  reader.forget(Item, '["1"]');
  expect(reader.query(state, Item, ['1'])).not.toBe(one);
  expect(reader.query(state, Item, ['2'])).toBe(two);
  reader.clear();
  expect(reader.query(state, Item, ['2'])).not.toBe(two);
});

test('resetEntireStore forgets the memoized reads, which held the old rows', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getItem, '1', { id: '1', name: 'one' }));
  const before = store.getState();
  const response = cache.selectResponse(before, getItem, '1');
  const query = cache.selectQuery(before, Item, '1');
  expect(cache.selectResponse(before, getItem, '1')).toBe(response);
  expect(cache.selectQuery(before, Item, '1')).toBe(query);
  store.dispatch(cache.resetEntireStore());
  // The same old state read again is built anew: nothing of it was kept.
  expect(cache.selectQuery(before, Item, '1')).not.toBe(query);
  expect(cache.selectQuery(before, Item, '1')).toEqual(query);
  expect(cache.selectResponse(before, getItem, '1')).not.toBe(response);
});

test('a response a sweep collects is forgotten by the memo', () => {
  jest.useFakeTimers({ now: 1_000_000 });
  try {
    const { cache, store } = makeStore({ gcTime: 1_000 });
    const failure = Object.assign(new Error('not found'), { status: 404, body: 'x'.repeat(1_000) });
    store.dispatch(cache.setError(getItem, 'gone', failure));
    const before = store.getState();
    const response = cache.selectResponse(before, getItem, 'gone');
    expect(response.error).toBe(failure);
    expect(cache.selectResponse(before, getItem, 'gone')).toBe(response);
    jest.advanceTimersByTime(10_000);
    expect((store.getState().cache as CacheState).meta).toEqual({});
    // The old state read again: a new answer. The original error is kept by its record (weakly),
    // which this old state still holds; it goes when the record does.
    const again = cache.selectResponse(before, getItem, 'gone');
    expect(again).not.toBe(response);
    expect(again.error).toBe(failure);
  } finally {
    jest.useRealTimers();
  }
});

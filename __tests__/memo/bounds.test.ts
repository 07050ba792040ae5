/**
 * The memo caches keyed by args are bounded (BEHAVIOR §16.20, `argsCacheSize`): distinct args
 * beyond the bound evict the least recently read ones, while row-backed entities stay shared.
 */
import { All, Entity, Query } from '../../src/index';
import { makeStore } from '../fixtures/store';

class Item extends Entity {
  id = '';
  name = '';
  static override key = 'Item';
}
// A plain-object join: its result object is memoized per args, so eviction is observable.
const join = { item: Item };

test('reads under more distinct args than argsCacheSize evict the oldest, and only it', () => {
  const { cache, store } = makeStore({ argsCacheSize: 2 });
  store.dispatch(cache.set([Item], [{ id: '1', name: 'one' }, { id: '2', name: 'two' }, { id: '3', name: 'three' }]));
  const state = store.getState();
  const read = (id: string) => cache.selectQuery(state, join, { id });

  const first = read('1');
  const second = read('2');
  expect(read('1')).toBe(first); // within the bound: remembered, and now the most recent
  read('3'); // a third args value evicts the least recent one: '2'
  expect(read('1')).toBe(first);
  const secondAgain = read('2');
  expect(secondAgain).not.toBe(second); // it was forgotten and rebuilt...
  expect(secondAgain).toEqual(second);
  expect(secondAgain?.item).toBe(second?.item); // ...but the entity itself is still shared by row
});

test("a Query's computed results are bounded per args too: an evicted args value runs process again", () => {
  const process = jest.fn((items: Item[], { prefix = '' }: { prefix?: string } = {}) => items.map(item => prefix + item.name));
  const names = new Query(new All(Item), process);
  const { cache, store } = makeStore({ argsCacheSize: 2 });
  store.dispatch(cache.set([Item], [{ id: '1', name: 'one' }]));
  const state = store.getState();
  const read = (prefix: string) => cache.selectQuery(state, names, { prefix });

  const a = read('a');
  expect(read('a')).toBe(a);
  expect(process).toHaveBeenCalledTimes(1);
  for (const prefix of ['b', 'c', 'd']) read(prefix); // more args than the bound: 'a' is forgotten
  expect(process).toHaveBeenCalledTimes(4);
  const again = read('a');
  expect(process).toHaveBeenCalledTimes(5); // recomputed, although its input is the very same list
  expect(again).toEqual(a);
  expect(again).not.toBe(a);
});

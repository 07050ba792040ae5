/**
 * The memo caches keyed by args are bounded (BEHAVIOR §16.20, `argsCacheSize`): distinct args
 * beyond the bound evict the least recently read ones, while row-backed entities stay shared.
 */
import { Entity } from '../../src/index';
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

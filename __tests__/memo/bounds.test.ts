/**
 * The memo caches keyed by args are bounded (`argsCacheSize`): distinct args
 * beyond the bound evict the least recently read ones, while row-backed entities stay shared.
 */
import { All, Entity, Query } from '../../src/index';
import { makeStore } from '../fixtures/store';

let pkCalls = 0;
class Item extends Entity {
  id = '';
  name = '';
  static override key = 'Item';
  // A read by args computes the pk once per walk: a remembered read does not call it.
  static override pk(...args: Parameters<typeof Entity.pk>) {
    pkCalls++;
    return super.pk(...args);
  }
}
const join = { item: Item };

test('reads under more distinct args than argsCacheSize evict the oldest, and only it', () => {
  const { cache, store } = makeStore({ argsCacheSize: 2 });
  store.dispatch(
    cache.set(
      [Item],
      [
        { id: '1', name: 'one' },
        { id: '2', name: 'two' },
        { id: '3', name: 'three' },
      ],
    ),
  );
  const state = store.getState();
  const read = (id: string) => cache.selectQuery(state, join, { id });

  const first = read('1');
  const second = read('2');
  expect(read('1')).toBe(first); // within the bound: remembered, and now the most recent
  read('3'); // a third args value evicts the least recent one: '2'
  expect(read('1')).toBe(first);
  let calls = pkCalls;
  read('1');
  expect(pkCalls).toBe(calls); // remembered: not walked again
  const secondAgain = read('2');
  expect(pkCalls).toBe(calls + 1); // forgotten, so walked again...
  // ...and, holding the very same entity (shared by row), it is the same container again.
  expect(secondAgain?.item).toBe(second?.item);
  expect(secondAgain).toBe(second);
  calls = pkCalls;
  read('2');
  expect(pkCalls).toBe(calls);
});

test("a Query's computed results are bounded per args too: an evicted args value runs process again", () => {
  const process = jest.fn((items: Item[], { prefix = '' }: { prefix?: string } = {}) =>
    items.map(item => prefix + item.name),
  );
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

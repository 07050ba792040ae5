import { ClearingMap, Lru } from '../../src/base/Lru';

test('keeps at most `capacity` entries, forgetting the least recently used', () => {
  const lru = new Lru<string, number>(2);
  lru.set('a', 1);
  lru.set('b', 2);
  expect(lru.get('a')).toBe(1); // a is now the most recent
  lru.set('c', 3); // evicts b
  expect(lru.get('b')).toBeUndefined();
  expect(lru.get('a')).toBe(1);
  expect(lru.get('c')).toBe(3);
});

test('setting an existing key refreshes it instead of growing', () => {
  const lru = new Lru<string, number>(2);
  lru.set('a', 1);
  lru.set('b', 2);
  lru.set('a', 10);
  lru.set('c', 3); // evicts b, not a
  expect(lru.get('a')).toBe(10);
  expect(lru.get('b')).toBeUndefined();
});

test('ClearingMap keeps every entry up to its bound, then starts empty', () => {
  const map = new ClearingMap<string, number>(3);
  map.set('a', 1);
  map.set('b', 2);
  map.set('c', 3);
  map.set('a', 10); // an existing key never clears
  expect([map.get('a'), map.get('b'), map.get('c'), map.size]).toEqual([10, 2, 3, 3]);
  map.set('d', 4);
  expect([map.get('a'), map.get('d'), map.size]).toEqual([undefined, 4, 1]);
});

import { Lru } from '../../src/shared/Lru';

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

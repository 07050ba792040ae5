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
  expect([map.get('a'), map.get('b'), map.get('c'), map.map.size]).toEqual([10, 2, 3, 3]);
  map.set('d', 4);
  expect([map.get('a'), map.get('d'), map.map.size]).toEqual([undefined, 4, 1]);
});

test('agrees with a reference LRU over 300 seeded sequences of gets, sets and deletes', () => {
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    // (The high bits: an LCG's low bits repeat with short periods.)
    return Math.floor((seed / 2 ** 31) * n);
  };
  for (let run = 0; run < 300; run++) {
    const capacity = next(5);
    const lru = new Lru<number, number>(capacity);
    // The reference: keys from the least recently used to the most, and their values.
    const order: number[] = [];
    const values = new Map<number, number>();
    const touch = (key: number) => {
      order.splice(order.indexOf(key), 1);
      order.push(key);
    };
    for (let step = 0; step < 60; step++) {
      const key = next(8);
      const op = next(3);
      if (op === 0) {
        const expected = values.get(key);
        if (expected !== undefined) touch(key);
        expect(lru.get(key)).toBe(expected);
      } else if (op === 1) {
        const value = next(1000);
        if (values.has(key)) touch(key);
        else if (capacity > 0) {
          if (order.length >= capacity) values.delete(order.shift()!);
          order.push(key);
        }
        if (capacity > 0) values.set(key, value);
        lru.set(key, value);
      } else {
        if (values.delete(key)) order.splice(order.indexOf(key), 1);
        lru.delete(key);
      }
      expect(lru.map.size).toBe(values.size);
    }
    for (const [key, value] of values) expect(lru.get(key)).toBe(value);
    lru.clear();
    expect([lru.map.size, lru.get(order[0] ?? 0)]).toEqual([0, undefined]);
  }
});

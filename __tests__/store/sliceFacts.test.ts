/**
 * What the reducer carries from each slice to the one its write makes (store/slice/reducer.ts,
 * SliceFacts): the lineage token, the memo owner and the high water pass on unchanged through the
 * cache's own writes; a slice from anywhere else starts a new lineage; an action for no cache
 * leaves the slice the very same object.
 */
import type { Patch } from '../../src/base/patch';
import type { CacheState } from '../../src/index';
import { applyPatches } from '../../src/store/slice/applyPatches';
import { initialState } from '../../src/store/slice/initialState';
import { SliceFacts } from '../../src/store/slice/reducer';
import { Post } from '../fixtures/schemas';
import { runtimeOf } from '../fixtures/runtime';
import { makeStore, snapshot } from '../fixtures/store';

const getPost = { key: (id: string) => `GET /posts/${id}`, schema: Post };
const post = (id: string, title: string) => ({ id, title, author: { id: 'u1', name: 'Ann' }, comments: [] });

test("through a store: the cache's writes keep one lineage token; another reducer's action keeps the slice; a restored slice starts its own", () => {
  const { cache, store } = makeStore();
  const { parts } = runtimeOf(cache, store);
  const slice = () => store.getState().cache as CacheState;
  const token = parts.lineage(slice());
  const writes = [
    () => store.dispatch(cache.setResponse(getPost, '1', post('1', 'One'))),
    () => store.dispatch(cache.set(Post, post('2', 'Two'))),
    () => store.dispatch(cache.invalidate(getPost, '1')),
  ];
  for (const write of writes) {
    const before = slice();
    const high = parts.highWater(before);
    write();
    expect(slice()).not.toBe(before);
    expect(parts.lineage(slice())).toBe(token);
    expect(parts.highWater(slice())).toBeGreaterThanOrEqual(high);
  }
  const before = slice();
  store.dispatch({ type: 'other/bump' });
  expect(slice()).toBe(before);
  expect(parts.lineage(slice())).toBe(token);
  // The same data, restored from JSON, is not the cache's own: a token of its own, kept for it.
  const restored = snapshot(before) as CacheState;
  expect(parts.lineage(restored)).not.toBe(token);
  expect(parts.lineage(restored)).toBe(parts.lineage(restored));
});

test('carry passes the token and the owner on as the same objects, moves the high water only up, and counts unsure rows by the patches', () => {
  const facts = new SliceFacts();
  const from = initialState();
  const owner = {};
  facts.note(from, owner);
  const line = facts.lineage(from);
  const meta = (fetchedAt: number, ambiguous?: true) => ({
    fetchedAt,
    date: fetchedAt,
    expiresAt: fetchedAt,
    ambiguous,
  });
  const write = (state: CacheState, patches: Patch[], start?: number) => {
    const next = applyPatches(state, patches);
    facts.carry(state, next, start, patches);
    return next;
  };
  const one = write(
    from,
    [
      { op: 'add', path: ['entities', 'Post'], value: { a: { id: 'a' } } },
      { op: 'add', path: ['entitiesMeta', 'Post'], value: { a: meta(50, true) } },
    ],
    50,
  );
  expect(facts.lineage(one)).toBe(line);
  expect(facts.owner(one)).toBe(owner);
  expect(facts.highWater(one)).toBe(50);
  expect(facts.unsure(one)).toBe(1);
  // An earlier stamp leaves the high water; a row made sure again moves the count down.
  const two = write(one, [{ op: 'replace', path: ['entitiesMeta', 'Post', 'a'], value: meta(40) }], 40);
  expect(facts.lineage(two)).toBe(line);
  expect(facts.owner(two)).toBe(owner);
  expect(facts.highWater(two)).toBe(50);
  expect(facts.unsure(two)).toBe(0);
  // A write that made no new slice changes nothing it knows.
  facts.carry(two, two, 99, []);
  expect(facts.highWater(two)).toBe(50);
  // A slice carry never saw: scanned once, a token of its own, no owner.
  const stranger = applyPatches(two, [{ op: 'replace', path: ['entitiesMeta', 'Post', 'a'], value: meta(70, true) }]);
  expect(facts.lineage(stranger)).not.toBe(line);
  expect(facts.owner(stranger)).toBeUndefined();
  expect(facts.highWater(stranger)).toBe(70);
  expect(facts.unsure(stranger)).toBe(1);
});

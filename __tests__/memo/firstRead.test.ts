/**
 * A first read builds its values without a record of what they read (docs/architecture.md, "Reads
 * and the memo model"): the plain read's work, plus one cache entry per value. The read after a
 * change builds them again with records, and keeps every object whose members are the same; so
 * identity is as it was, whatever read comes first.
 */
import { Collection, Entity, Scalar, Values, type LensArgs } from '../../src/index';
import { Reader } from '../../src/memo/Reader';
import { Post, User } from '../fixtures/schemas';
import { makeStore } from '../fixtures/store';

const posts = new Collection([Post], { argsKey: () => ({}) });
const getPosts = { key: () => 'GET /posts', schema: posts };
const response = Array.from({ length: 6 }, (_, i) => ({
  id: `p${i}`,
  title: `Post ${i}`,
  author: { id: `u${i % 2}`, name: `User ${i % 2}` },
  comments: [{ id: `c${i}`, body: `Comment ${i}`, author: { id: `u${(i + 1) % 3}`, name: `User ${(i + 1) % 3}` } }],
}));

class Other extends Entity {
  id = '';
  static override key = 'FirstReadOther';
}

function setup() {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getPosts, undefined as never, response));
  const reader = new Reader({ argsCacheSize: 10, lensCacheSize: 4, maxEntityDepth: 64 });
  const slice = () => store.getState().cache;
  return { cache, store, reader, slice };
}

test('a first read keeps no record; the read after a change to its rows makes one and keeps every untouched object', () => {
  const { cache, store, reader, slice } = setup();
  const stored = slice().endpoints[getPosts.key()];
  const first = reader.result(slice(), posts, [], stored);
  expect(first.recorded).toBe(false);
  expect(first.someDep).toBeUndefined();
  const before = first.value as Post[];

  // A write to a table it did not read: the same read, still unrecorded.
  store.dispatch(cache.set(Other, { id: 'x' }));
  expect(reader.result(slice(), posts, [], stored)).toBe(first);

  store.dispatch(cache.set(Post, { id: 'p2', title: 'Changed' }));
  const second = reader.result(slice(), posts, [], stored);
  expect(second.recorded).toBe(true);
  const after = second.value as Post[];
  expect(after).not.toBe(before);
  expect(after[2]!.title).toBe('Changed');
  for (const i of [0, 1, 3, 4, 5]) expect(after[i]).toBe(before[i]);
  expect(after[2]!.author).toBe(before[2]!.author);
  expect(after[2]!.comments[0]).toBe(before[2]!.comments[0]);

  // Recorded from now on: a change it missed keeps the very entry.
  store.dispatch(cache.set(User, { id: 'u9', name: 'Elsewhere' }));
  expect(reader.result(slice(), posts, [], stored)).toBe(second);
});

test('a value another first read built is shared while the tables are the same, and rebuilt (same object if equal) after a change', () => {
  const { cache, store, reader, slice } = setup();
  const list = reader.result(slice(), posts, [], slice().endpoints[getPosts.key()]).value as Post[];
  // Another read of one post, in the same state: the very object the list holds.
  expect(reader.query(slice(), Post, [{ id: 'p1' }]).value).toBe(list[1]);
  store.dispatch(cache.set(User, { id: 'u0', name: 'Renamed' }));
  // A first read of other args after a change: p3 (author u1, comment by u1) is the same object;
  // p4 (author u0) is new, with the new name.
  expect(reader.query(slice(), Post, [{ id: 'p3' }]).value).toBe(list[3]);
  const p4 = reader.query(slice(), Post, [{ id: 'p4' }]).value as Post;
  expect(p4).not.toBe(list[4]);
  expect(p4.author.name).toBe('Renamed');
  expect(p4.comments[0]).toBe(list[4]!.comments[0]);
});

test('asked for its rows, a read is recorded at once, with the same objects as the unrecorded read before it', () => {
  const { reader, slice } = setup();
  const stored = slice().endpoints[getPosts.key()];
  const first = reader.result(slice(), posts, [], stored);
  const recorded = reader.result(slice(), posts, [], stored, undefined, true);
  expect(recorded.recorded).toBe(true);
  expect(recorded.value).toBe(first.value);
  const rows: string[] = [];
  recorded.someDep!((table, key) => (rows.push(`${table}/${key}`), false));
  expect(rows).toEqual(expect.arrayContaining(['Post/p0', 'User/u1', 'Comment/c5']));
});

test('views at several lenses built by first reads: a cell changed at one lens keeps the other lens’s objects and the untouched rows', () => {
  class Fund extends Entity {
    id = '';
    name = '';
    weight = 0;
    static override key = 'FirstReadFund';
    declare static schema: { weight: Scalar };
  }
  const weight = new Scalar({
    lens: (args: LensArgs<{ portfolio?: string }>) => args[0]?.portfolio,
    key: 'firstReadWeight',
    entity: Fund,
  });
  Fund.schema = { weight };
  const funds = new Collection([Fund], { argsKey: () => ({}) });
  const { cache, store } = makeStore();
  store.dispatch(
    cache.set(funds, { portfolio: 'A' }, [
      { id: '1', name: 'One', weight: 0.1 },
      { id: '2', name: 'Two', weight: 0.2 },
    ]),
  );
  store.dispatch(cache.set(new Values(weight), { portfolio: 'B' }, { 1: { weight: 0.3 }, 2: { weight: 0.4 } }));
  let n = 0;
  // New args each time (the lens is the same): every read is a first read of its args.
  const read = (portfolio: string) => cache.selectQuery(store.getState(), funds, { portfolio, n: ++n })!;
  const a = read('A');
  const b = read('B');
  expect(a.map(fund => fund.weight)).toEqual([0.1, 0.2]);
  expect(b.map(fund => fund.weight)).toEqual([0.3, 0.4]);
  store.dispatch(cache.set(new Values(weight), { portfolio: 'B' }, { 2: { weight: 0.5 } }));
  const a2 = read('A');
  const b2 = read('B');
  expect(a2).toBe(a);
  expect(b2).not.toBe(b);
  expect(b2[0]).toBe(b[0]);
  expect(b2[1]!.weight).toBe(0.5);
});

test('a graph with a cycle is read recording at once', () => {
  class Node extends Entity {
    id = '';
    next: Node | undefined = undefined;
    static override key = 'FirstReadNode';
    static override schema = { next: Node };
  }
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Node, { id: 'a', next: { id: 'b', next: 'a' } }));
  const reader = new Reader({ argsCacheSize: 10, lensCacheSize: 4, maxEntityDepth: 64 });
  const read = reader.query(store.getState().cache, Node, [{ id: 'a' }]);
  expect(read.recorded).toBe(true);
  const a = read.value as Node;
  expect(a.next!.next).toBe(a);
});

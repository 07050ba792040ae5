/**
 * One stored result read both ways in one state (a fetch's read-back, by its stored result, then a
 * component's read of the query, or the other way round): the second read takes the first's
 * value and depends on what both read, without walking the list again (memo/Reader.ts).
 */
import { Collection } from '../../src/index';
import { EntityCache } from '../../src/memo/EntityCache';
import { Reader } from '../../src/memo/Reader';
import { Post } from '../fixtures/schemas';
import { makeStore } from '../fixtures/store';

const posts = new Collection([Post], { argsKey: () => ({}) });
const list = Array.from({ length: 30 }, (_, i) => ({
  id: `p${i}`,
  title: `Post ${i}`,
  author: { id: `u${i % 3}`, name: 'U' },
}));

function setup() {
  const { cache, store } = makeStore();
  store.dispatch(cache.set(posts, {}, list));
  const slice = () => store.getState().cache;
  const reader = new Reader({ argsCacheSize: 8, lensCacheSize: 4, maxEntityDepth: 64 });
  const stored = posts.pk(undefined, undefined, undefined, [{}]);
  return { cache, store, slice, reader, stored };
}

afterEach(() => jest.restoreAllMocks());

test.each(['result first', 'query first'])(
  '%s: the other read takes its value without a walk, and both follow a write',
  order => {
    const { cache, store, slice, reader, stored } = setup();
    const byResult = () => reader.result(slice(), posts, [{}], stored);
    const byQuery = () => reader.query(slice(), posts, [{}]);
    const [first, second] = order === 'result first' ? [byResult, byQuery] : [byQuery, byResult];
    const a = first();
    const lookups = jest.spyOn(EntityCache.prototype, 'get');
    const b = second();
    expect(lookups).not.toHaveBeenCalled();
    expect(b.value).toBe(a.value);
    // The second read depends on the rows the list holds.
    const rows: string[] = [];
    b.someDep((table, key) => (rows.push(`${table}/${key}`), false));
    expect(rows).toEqual(expect.arrayContaining(['Post/p0', 'User/u2']));
    lookups.mockRestore();
    // A write to a post the list holds: both read it.
    store.dispatch(cache.set(Post, { id: 'p4', title: 'Changed' }));
    for (const read of [byResult, byQuery]) {
      const next = read().value as Post[];
      expect(next[4]!.title).toBe('Changed');
      expect(next[5]).toBe((a.value as Post[])[5]);
    }
  },
);

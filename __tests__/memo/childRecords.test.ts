/**
 * A value that holds a row-backed value with a long record names that record instead of copying it
 * (docs/benchmarks.md, "Cold paths"; memo/deps.ts, CHILD). These reads nest deep enough for that:
 * a change anywhere below must still rebuild exactly the values above it, lens views must still be
 * keyed by the lenses their named records read, and the reads must equal the pure `denormalize`.
 */
import { Collection, denormalize, Entity } from '../../src/index';
import { Comment, Post, User } from '../fixtures/schemas';
import { Company, getColumnsMap } from '../fixtures/company';
import { makeStore } from '../fixtures/store';

const posts = new Collection([Post], { argsKey: () => ({}) });
const getPosts = { key: () => 'GET /posts', schema: posts };

const user = (id: string) => ({ id, name: `User ${id}` });
const response = Array.from({ length: 4 }, (_, i) => ({
  id: `p${i}`,
  title: `Post ${i}`,
  author: user(`u${i % 2}`),
  comments: [0, 1, 2].map(j => ({ id: `c${i}-${j}`, body: `Comment ${j}`, author: user(`u${(i + j) % 3}`) })),
}));

function setup() {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getPosts, undefined as never, response));
  const read = () => cache.selectQuery(store.getState(), posts) as Post[];
  const pure = () => {
    const slice = store.getState().cache;
    return denormalize(posts, slice.endpoints[getPosts.key()], [], slice);
  };
  return { cache, store, read, pure };
}

describe('named records', () => {
  test('a user read three levels down rebuilds exactly the posts above it', () => {
    const { cache, store, read, pure } = setup();
    const before = read();
    // u2 writes only comments: c0-2, c1-1, c2-0, c3-2 … (i + j) % 3 === 2.
    store.dispatch(cache.set(User, { id: 'u2', name: 'Renamed' }));
    const after = read();
    expect(after).not.toBe(before);
    expect(after).toEqual(pure());
    after.forEach((post, i) => {
      const touched = post.comments.some(comment => comment.author.id === 'u2');
      expect(post === before[i]).toBe(!touched);
      post.comments.forEach((comment, j) =>
        expect(comment === before[i]!.comments[j]).toBe(comment.author.id !== 'u2'),
      );
    });
    expect(after.flatMap(post => post.comments).filter(c => c.author.id === 'u2')[0]!.author.name).toBe('Renamed');
  });

  test('a change under one post, then under another, keeps every untouched post through both reads', () => {
    const { cache, store, read, pure } = setup();
    const first = read();
    store.dispatch(cache.set(Comment, { id: 'c1-0', body: 'Edited' }));
    const second = read();
    store.dispatch(cache.set(Post, { id: 'p3', title: 'Retitled' }));
    const third = read();
    expect(third).toEqual(pure());
    expect(second[1]).not.toBe(first[1]);
    expect(third[1]).toBe(second[1]);
    expect(third[3]).not.toBe(second[3]);
    for (const i of [0, 2]) expect(third[i]).toBe(first[i]);
    // The same state read again is the same list.
    expect(read()).toBe(third);
  });
});

/** A holder of companies: each company's record (row, cells, lenses, sector) is long enough to be named. */
class Holder extends Entity {
  id = '';
  companies: Company[] = [];
  static override key = 'Holder';
  static override schema = { companies: [Company] };
}

describe('named records and lenses', () => {
  function lensSetup() {
    const { cache, store } = makeStore();
    const companies = [
      { id: '1', name: 'Acme', price: 1, pct_equity: 0.5, shares: 5, sector: { id: 's1', name: 'Tech' } },
      { id: '2', name: 'Globex', price: 2, pct_equity: 0.2, shares: 7, sector: { id: 's1', name: 'Tech' } },
    ];
    store.dispatch(cache.set(Holder, { portfolio: 'A' }, { id: 'h', companies }));
    store.dispatch(cache.setResponse(getColumnsMap, { portfolio: 'B' }, { 1: { pct_equity: 0.9, shares: 9 } }));
    let n = 0;
    // Args never seen before, so the read reaches the per-row views rather than the per-args memo.
    const holder = (portfolio: string) =>
      cache.selectQuery(store.getState(), Holder, { id: 'h', portfolio, n: ++n }) as Holder;
    return { cache, store, holder };
  }

  test('a holder is viewed per lens through the lenses its named companies read', () => {
    const { holder } = lensSetup();
    const a = holder('A');
    const b = holder('B');
    expect(b).not.toBe(a);
    expect(a.companies.map(c => c.pct_equity)).toEqual([0.5, 0.2]);
    expect(b.companies.map(c => c.pct_equity)).toEqual([0.9, undefined]);
    expect(holder('A')).toBe(a);
    expect(holder('B')).toBe(b);
    // The sector reads no lens: one object under both.
    expect(b.companies[0]!.sector).toBe(a.companies[0]!.sector);
  });

  test('a cell written at one lens rebuilds that lens’s holder only', () => {
    const { cache, store, holder } = lensSetup();
    const a = holder('A');
    const b = holder('B');
    store.dispatch(cache.setResponse(getColumnsMap, { portfolio: 'A' }, { 2: { pct_equity: 0.25, shares: 8 } }));
    const a2 = holder('A');
    expect(a2).not.toBe(a);
    expect(a2.companies.map(c => c.pct_equity)).toEqual([0.5, 0.25]);
    expect(a2.companies[0]).toBe(a.companies[0]);
    expect(holder('B')).toBe(b);
  });
});

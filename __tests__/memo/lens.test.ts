/**
 * Lens buckets (docs/architecture.md, "Lens views"): views of the Company list at different portfolios coexist,
 * share every entity that reads no lens, and are invalidated only by the rows and cells they read.
 * Memo caches keyed by lens or args are bounded (`lensCacheSize`, `argsCacheSize`).
 *
 * Reads with args equal by value are served whole by the per-args memo; `fresh(lens)` makes args
 * never seen before (the list's pk ignores them), so the read reaches the per-row lens buckets.
 */
import { All, Entity, Scalar, type CacheOptions } from '../../src/index';
import { companies, Company, companyList, getColumnsMap, getCompanies, Sector } from '../fixtures/company';
import { makeStore } from '../fixtures/store';

const A = { portfolio: 'A' };
const B = { portfolio: 'B' };
const CELLS = 'Scalar(portfolio)';

let reads = 0;
/** Args at `portfolio` that no earlier read used. */
const fresh = (portfolio: string) => ({ portfolio, read: ++reads });

interface Setup {
  options?: CacheOptions;
  /** The companies of the list, written at lens `first`. */
  rows?: readonly object[];
  first?: string;
  /** Values column writes, by lens. */
  columns?: Record<string, Record<string, object>>;
}

const columnsAtB = { B: { 1: { pct_equity: 0.3, shares: 323 }, 2: { pct_equity: 0.1, shares: 7 } } };

/** A store with the Company list at lens `first` and column writes at further lenses, with read helpers. */
function setup({ options = {}, rows = companies, first = 'A', columns = columnsAtB }: Setup = {}) {
  const { cache, store } = makeStore(options);
  store.dispatch(cache.setResponse(getCompanies, { portfolio: first }, rows));
  for (const [portfolio, map] of Object.entries(columns))
    store.dispatch(cache.setResponse(getColumnsMap, { portfolio }, map));
  const list = (params: object) => cache.selectQuery(store.getState(), companyList, params)!;
  const company = (id: string, params: object) => cache.selectQuery(store.getState(), Company, { id, ...params })!;
  const sector = (id: string) => cache.selectQuery(store.getState(), Sector, id)!;
  return { cache, store, list, company, sector };
}

/** Portfolio names L0 … L<n-1>. */
const lenses = (n: number) => Array.from({ length: n }, (_, i) => `L${i}`);

describe('lens switches', () => {
  test('A → B → A returns A’s very objects; B’s differ; the sector is shared by both and a direct read', () => {
    const { list, company, sector } = setup();
    const a = list(A);
    const b = list(B);
    const again = list(A);
    expect(a.map(c => c.pct_equity)).toEqual([0.5, 0.2]);
    expect(b.map(c => c.pct_equity)).toEqual([0.3, 0.1]);
    expect(again).toBe(a);
    again.forEach((c, i) => expect(c).toBe(a[i]));
    // Also when the read is not served whole, but rebuilt from the per-row buckets.
    const rebuilt = list(fresh('A'));
    expect(rebuilt).toBe(a);
    expect(list(fresh('B'))).toBe(b);

    expect(b).not.toBe(a);
    b.forEach((c, i) => expect(c).not.toBe(a[i]));
    expect(company('1', A)).toBe(a[0]);
    expect(company('1', B)).toBe(b[0]);

    const tech = sector('s1');
    expect(a[0]!.sector).toBe(tech);
    expect(a[1]!.sector).toBe(tech);
    expect(b[0]!.sector).toBe(tech);
    expect(company('2', fresh('B')).sector).toBe(tech);
  });

  test('no lens is a bucket of its own; [] and [{}] give the same result', () => {
    const { list, cache, store } = setup();
    const none = cache.selectQuery(store.getState(), companyList)!;
    expect(none.map(c => c.pct_equity)).toEqual([undefined, undefined]);
    expect(list({})).toBe(none);
    expect(list({ other: 1 })).toBe(none);
    expect(none[0]).not.toBe(list(A)[0]);
    expect(none[0]!.sector).toBe(list(A)[0]!.sector);
    expect(cache.selectQuery(store.getState(), companyList)).toBe(none);
  });
});

describe('which objects a write replaces', () => {
  test('cell Company|1|A changes: lens-B views, company 2 at A and the sector stay; company 1 at A and the A list are new', () => {
    const { cache, store, list, company, sector } = setup();
    const a = list(A);
    const b = list(B);
    const tech = sector('s1');
    const companyRows = store.getState().cache.entities.Company;
    store.dispatch(cache.set(getColumnsMap.schema, A, { 1: { pct_equity: 0.6 } }));
    expect(store.getState().cache.entities.Company).toBe(companyRows);

    const nextB = list(B);
    expect(nextB).toBe(b);
    expect(nextB[0]).toBe(b[0]);
    expect(list(fresh('B'))).toBe(b);
    expect(company('1', fresh('B'))).toBe(b[0]);

    const nextA = list(A);
    expect(nextA).not.toBe(a);
    expect(nextA[0]).not.toBe(a[0]);
    expect([nextA[0]!.pct_equity, nextA[0]!.shares]).toEqual([0.6, 32342]);
    expect(nextA[1]).toBe(a[1]);
    expect(nextA[0]!.sector).toBe(tech);
    expect(sector('s1')).toBe(tech);
    expect(company('1', A)).toBe(nextA[0]);
    expect(list(fresh('A'))).toBe(nextA);
  });

  test('a stable field of company 1 changes (price): company 2 stays in every bucket, company 1 is new in every bucket', () => {
    const { cache, store, list, sector } = setup();
    const before = { A: list(A), B: list(B), none: list({}) };
    const tech = sector('s1');
    const cellTable = store.getState().cache.entities[CELLS];
    store.dispatch(cache.set(Company, { id: '1', price: 101 }));
    expect(store.getState().cache.entities[CELLS]).toBe(cellTable);

    for (const [portfolio, old] of Object.entries(before)) {
      const params = portfolio === 'none' ? {} : { portfolio };
      const next = list(params);
      expect(next).not.toBe(old);
      expect(next[0]).not.toBe(old[0]);
      expect(next[0]!.price).toBe(101);
      expect(next[0]!.pct_equity).toBe(old[0]!.pct_equity);
      expect(next[1]).toBe(old[1]);
      expect(next[0]!.sector).toBe(tech);
      expect(list({ ...params, read: ++reads })).toBe(next);
    }
  });

  test('a view gone stale before a second lens is read is kept beside it, and never served stale', () => {
    // The first view of a row is kept alone; the second lens's view puts both in the row's views
    // without checking the first one's rows. It must be checked when it is asked for again.
    const { cache, store, company } = setup();
    const atA = company('1', fresh('A'));
    store.dispatch(cache.set(Sector, { id: 's1', name: 'Renamed' }));
    const atB = company('1', fresh('B'));
    expect(atB.sector.name).toBe('Renamed');
    const againAtA = company('1', fresh('A'));
    expect(againAtA).not.toBe(atA);
    expect(againAtA.sector.name).toBe('Renamed');
    expect([againAtA.pct_equity, atA.pct_equity]).toEqual([0.5, 0.5]);
    // Now valid, it is served as it is at A, and B's stays.
    expect(company('1', fresh('A'))).toBe(againAtA);
    expect(company('1', fresh('B'))).toBe(atB);
  });
  test('different args with the same lens give the same result; unrelated updates keep every object', () => {
    const { cache, store, list, company } = setup();
    const a = list(A);
    const b = list(B);
    expect(list({ portfolio: 'A', x: 1 })).toBe(a);
    expect(list({ x: 1, portfolio: 'A' })).toBe(a);
    expect(company('1', { portfolio: 'A', x: 1 })).toBe(a[0]);
    // Containers that are not rows (All, a root Scalar read) too, though each args value is its own read.
    const all = new All(Company);
    const allA = cache.selectQuery(store.getState(), all, A);
    cache.selectQuery(store.getState(), all, B);
    expect(cache.selectQuery(store.getState(), all, { portfolio: 'A', x: 1 })).toBe(allA);
    expect(cache.selectQuery(store.getState(), all, { portfolio: 'B', x: 1 })).not.toBe(allA);

    class Note extends Entity {
      id = '';
      text = '';
      static override key = 'Note';
    }
    const entities = store.getState().cache.entities;
    store.dispatch({ type: 'other/bump' }); // another slice
    store.dispatch(cache.set(Note, { id: 'n1', text: 'hi' })); // another table
    store.dispatch(cache.set(Company, { id: '3', name: 'Initech' })); // a row of a table read, but not read
    store.dispatch(cache.setResponse(getCompanies, A, companies)); // identical content: meta only (a no-op write)
    expect(store.getState().cache.entities.Company).not.toBe(entities.Company);
    expect(store.getState().cache.entities[CELLS]).toBe(entities[CELLS]);
    expect(list(A)).toBe(a);
    expect(list(B)).toBe(b);
    expect(list(fresh('A'))).toBe(a);
    expect(list({ portfolio: 'B', x: 2 })).toBe(b);
    expect(company('1', B)).toBe(b[0]);
  });
});

describe('coexisting lenses', () => {
  test('two components at different lenses do not evict each other', () => {
    const { list, company } = setup();
    const a = list(A);
    const b = list(B);
    for (let i = 0; i < 50; i++) {
      const [params, expected] = i % 2 === 0 ? [A, a] : [B, b];
      expect(list(params)).toBe(expected);
      expect(list(fresh(params.portfolio))).toBe(expected);
      expect(company('2', fresh(params.portfolio))).toBe(expected[1]);
    }
  });

  test('16 lenses read in turn, three rounds: every view stays (default lensCacheSize)', () => {
    const names = lenses(16);
    const { list } = setup({
      first: 'L0',
      columns: Object.fromEntries(names.slice(1).map((name, i) => [name, { 1: { pct_equity: i } }])),
    });
    const views = names.map(name => list({ portfolio: name }));
    for (let round = 0; round < 3; round++) {
      names.forEach((name, i) => expect(list(fresh(name))).toBe(views[i]));
    }
  });
});

describe('memory bounds', () => {
  const many = Array.from({ length: 50 }, (_, i) => ({
    id: String(i + 1),
    name: `Co ${i + 1}`,
    price: i,
    pct_equity: i / 100,
    shares: i,
    sector: { id: 's1', name: 'Tech' },
  }));
  /** Columns at L1 … L<n-1> for every company: pct_equity = lens index. */
  const columnsFor = (names: readonly string[]) =>
    Object.fromEntries(
      names.slice(1).map((name, lens) => [name, Object.fromEntries(many.map(c => [c.id, { pct_equity: lens + 1 }]))]),
    );

  test('lensCacheSize 4, argsCacheSize 4: the 4 most recent lenses stay; older ones come back equal but new', () => {
    const names = lenses(10);
    const { list, sector } = setup({
      options: { lensCacheSize: 4, argsCacheSize: 4 },
      rows: many,
      first: 'L0',
      columns: columnsFor(names),
    });
    const views = names.map(name => list({ portfolio: name }));
    expect(views[0]).toHaveLength(50);
    expect(views.map(view => view[0]!.pct_equity)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

    // Within both bounds: the per-args memo and the per-row buckets both still hold L6 … L9.
    for (const i of [9, 8, 7, 6]) expect(list({ portfolio: names[i]! })).toBe(views[i]);
    for (const i of [6, 7, 8, 9]) expect(list(fresh(names[i]!))).toBe(views[i]);

    // Exactly 4 views per row: L5, just outside, is rebuilt too.
    const l5 = list(fresh('L5'));
    expect(l5).not.toBe(views[5]);
    expect(l5).toEqual(views[5]);

    // Beyond both: L0 is rebuilt, list and companies alike; the lens-free sector is still shared.
    const l0 = list({ portfolio: 'L0' });
    expect(l0).not.toBe(views[0]);
    expect(l0[0]).not.toBe(views[0]![0]);
    expect(l0).toEqual(views[0]);
    expect(l0[0]!.sector).toBe(sector('s1'));
    expect(views[9]![0]!.sector).toBe(sector('s1'));
  });

  test('default bounds: 16 views per row; a 17th distinct lens evicts the least recently used', () => {
    const names = lenses(17);
    const { list, company } = setup({ rows: many, first: 'L0', columns: columnsFor(names) });
    const views = names.slice(0, 16).map(name => list({ portfolio: name }));
    names.slice(0, 16).forEach((name, i) => expect(list(fresh(name))).toBe(views[i]));

    // L0 is used again, so L1 is now the least recently used; the 17th lens evicts it.
    expect(list(fresh('L0'))).toBe(views[0]);
    const l16 = list({ portfolio: 'L16' });
    expect(l16[0]!.pct_equity).toBe(16);
    expect(list(fresh('L16'))).toBe(l16);
    names.slice(0, 16).forEach((name, i) => {
      if (i !== 1) expect(list(fresh(name))).toBe(views[i]);
    });
    // The list row evicted L1, its least recently used view. L1's companies are still cached (the
    // companies were not read since), so the rebuilt list holds the very same members and is the
    // same container again.
    expect(list(fresh('L1'))).toBe(views[1]);
    // Each company row evicted L0, the least recently used of its own 16 views: read alone, it is rebuilt.
    const company1 = company('1', fresh('L0'));
    expect(company1).not.toBe(views[0]![0]);
    expect(company1).toEqual(views[0]![0]);
  });
});

describe('an entity that reads two lens functions', () => {
  const pick = (name: 'l1' | 'l2') => (args: readonly unknown[]) =>
    (args[0] as Record<string, string> | undefined)?.[name];
  const First = new Scalar({ lens: pick('l1'), key: 'first' });
  const Second = new Scalar({ lens: pick('l2'), key: 'second' });
  class Pair extends Entity {
    id = '';
    a = 0;
    b = 0;
    static override key = 'Pair';
    static override schema = { a: First, b: Second };
  }

  function pairStore(...writes: Array<[params: object, a: number, b: number]>) {
    const { cache, store } = makeStore();
    for (const [params, a, b] of writes) store.dispatch(cache.set(Pair, params, { id: '1', a, b }));
    return (params: object) => cache.selectQuery(store.getState(), Pair, { id: '1', ...params, read: ++reads })!;
  }

  test('is bucketed per combination of lens values', () => {
    const read = pairStore([{ l1: 'A', l2: 'B' }, 1, 1], [{ l1: 'B', l2: 'A' }, 2, 2]);
    const ab = read({ l1: 'A', l2: 'B' });
    const ba = read({ l1: 'B', l2: 'A' });
    const aOnly = read({ l1: 'A' });
    expect([ab.a, ab.b, ba.a, ba.b, aOnly.a, aOnly.b]).toEqual([1, 1, 2, 2, 1, undefined]);
    expect(ba).not.toBe(ab);
    expect(aOnly).not.toBe(ab);
    for (let i = 0; i < 3; i++) {
      expect(read({ l1: 'A', l2: 'B' })).toBe(ab);
      expect(read({ l1: 'B', l2: 'A' })).toBe(ba);
      expect(read({ l1: 'A' })).toBe(aOnly);
    }
  });

  // Several lens values make one view key: no choice of lens strings may make two combinations
  // collide. A lens is any string without "|", and a read shows its own lens's cells.
  test('lens strings holding a NUL character do not share a bucket with another combination', () => {
    const first = { l1: 'x\u0000sy', l2: 'z' };
    const second = { l1: 'x', l2: 'y\u0000sz' };
    const read = pairStore([first, 1, 1], [second, 2, 2]);
    expect([read(first).a, read(first).b]).toEqual([1, 1]);
    expect([read(second).a, read(second).b]).toEqual([2, 2]);
    expect([read(first).a, read(first).b]).toEqual([1, 1]);
  });
});

describe('invalid lens values', () => {
  // An invalid lens (here an object, new on every read) reads like no lens, so args equal
  // by value keep the result across an unrelated update.
  test('an object-valued lens keeps the result across an unrelated update, for args equal by value', () => {
    const { cache, store } = setup();
    const read = () => cache.selectQuery(store.getState(), Company, { id: '1', portfolio: { x: 1 } })!;
    const first = read();
    expect(first.pct_equity).toBeUndefined();
    expect(read()).toBe(first);
    store.dispatch(cache.set(Company, { id: '3', name: 'Initech' }));
    expect(read()).toBe(first);
  });

  test('a number or null lens keeps its result across an unrelated update', () => {
    const { cache, store } = setup();
    for (const portfolio of [5, null]) {
      const read = () => cache.selectQuery(store.getState(), Company, { id: '1', portfolio })!;
      const first = read();
      expect(first.pct_equity).toBeUndefined();
      store.dispatch(cache.set(Company, { id: `other-${String(portfolio)}`, name: 'Initech' }));
      expect(read()).toBe(first);
    }
  });
});

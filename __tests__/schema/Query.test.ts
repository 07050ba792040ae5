/**
 * Query (see docs/Query.md): a programmatic read of the cache.
 *
 * Covers the four canonical uses as users write them (sort, count, group-by, join with fallback),
 * every kind of inner queryable, when `process` is skipped, the memoization of its output (counted
 * with jest.fn), a Query used as an endpoint's schema, and its errors.
 */
import { All, Collection, Entity, ErrorCode, Invalidate, Lazy, Query, Union, Values } from '../../src/index';
import {
  companies,
  type Company,
  companyList,
  getColumnsMap,
  getCompanies,
  PortfolioScalar,
} from '../fixtures/company';
import { Post, User } from '../fixtures/schemas';
import { makeStore } from '../fixtures/store';
import { catchError, endpoint } from '../fixtures/writes';

// ---------------------------------------------------------------------------------------------
// Schemas and helpers
// ---------------------------------------------------------------------------------------------

class Ticker extends Entity {
  product_id = '';
  price = 0;
  override pk() {
    return this.product_id;
  }
  static override key = 'Ticker';
}

class Stats extends Entity {
  product_id = '';
  last = 0;
  override pk() {
    return this.product_id;
  }
  static override key = 'Stats';
}

class Member extends Entity {
  id = '';
  name = '';
  isAdmin = false;
  static override key = 'Member';
}

class Group extends Entity {
  id = '';
  name = '';
  static override key = 'Group';
}

class Building extends Entity {
  id = '';
  name = '';
  static override key = 'Building';
}

type OrderBy = 'id' | 'title';

/** GET /:group/posts, one list per group (orderBy does not make a separate list). */
const posts = new Collection([Post], { argsKey: ({ group }: { group?: string }) => ({ group }) });

// 1. Sort by an `orderBy` arg; the input as is without it.
const sortProcess = jest.fn((entries: Post[], { orderBy }: { orderBy?: OrderBy } = {}) =>
  orderBy ? [...entries].sort((a, b) => String(a[orderBy]).localeCompare(String(b[orderBy]))) : entries,
);
const sortedPosts = new Query(posts, sortProcess);

// 2. Counts over All, plain and filtered by an args default.
const countProcess = jest.fn((users: User[]) => users.length);
const userCount = new Query(new All(User), countProcess);
const memberCountProcess = jest.fn((members: Member[], { isAdmin }: { isAdmin?: boolean } = {}) =>
  isAdmin === undefined ? members.length : members.filter(member => member.isAdmin === isAdmin).length,
);
const memberCount = new Query(new All(Member), memberCountProcess);

// 3. Group-by author id.
const groupProcess = jest.fn((entries: Post[]) => {
  const groups: Record<string, Post[]> = {};
  for (const entry of entries) (groups[entry.author.id] ??= []).push(entry);
  return groups;
});
const postsByAuthor = new Query(new All(Post), groupProcess);

// 4. A join with fallback, and a variant returning an object (for identity checks).
const joinProcess = jest.fn(({ ticker, stats }: { ticker?: Ticker; stats?: Stats }) => ticker?.price ?? stats?.last);
const currentPrice = new Query({ ticker: Ticker, stats: Stats }, joinProcess);
const quoteProcess = jest.fn(({ ticker, stats }: { ticker?: Ticker; stats?: Stats }) => ({
  price: ticker?.price ?? stats?.last,
  source: ticker ? 'ticker' : 'stats',
}));
const quote = new Query({ ticker: Ticker, stats: Stats }, quoteProcess);

type Harness = ReturnType<typeof makeStore>;

function setup(): Harness {
  return makeStore();
}

/** `cache.selectQuery` against the store's current state. */
function read<S>({ cache, store }: Harness, schema: S, ...args: unknown[]) {
  return cache.selectQuery(store.getState(), schema, ...args);
}

function post(id: string, title: string, author = 'u1') {
  return { id, title, author: { id: author, name: `User ${author}` } };
}

/** Writes the `group` list: `p2 Banana`, `p1 Cherry`, `p3 Apple` (not in title order). */
function seedPosts(h: Harness, group = 'r'): void {
  h.store.dispatch(
    h.cache.set(posts, { group }, [post('p2', 'Banana'), post('p1', 'Cherry', 'u2'), post('p3', 'Apple')]),
  );
}

/** Fresh `{ group: 'r', orderBy: 'title' }` args for each read (equal by value, never the same object). */
function byTitleArgs() {
  return { group: 'r', orderBy: 'title' as const };
}

const ids = (list: readonly { id: string }[] | undefined) => list?.map(item => item.id);

beforeEach(() => {
  jest.clearAllMocks();
});

// ---------------------------------------------------------------------------------------------
// 1. Sort
// ---------------------------------------------------------------------------------------------

describe('sort by an orderBy arg', () => {
  test('sorts by the orderBy field, leaving the input list and its order untouched', () => {
    const h = setup();
    seedPosts(h);
    const list = read(h, posts, { group: 'r' })!;
    const sorted = read(h, sortedPosts, { group: 'r', orderBy: 'title' })!;
    expect(sorted.map(item => item.title)).toEqual(['Apple', 'Banana', 'Cherry']);
    expect(sorted).not.toBe(list);
    expect(ids(list)).toEqual(['p2', 'p1', 'p3']);
    expect(ids(read(h, posts, { group: 'r' }))).toEqual(['p2', 'p1', 'p3']);
    expect(read(h, posts, { group: 'r' })).toBe(list);
  });

  test('the entities inside are the very objects of the collection read', () => {
    const h = setup();
    seedPosts(h);
    const list = read(h, posts, { group: 'r' })!;
    const sorted = read(h, sortedPosts, { group: 'r', orderBy: 'id' })!;
    expect(ids(sorted)).toEqual(['p1', 'p2', 'p3']);
    expect(sorted[0]).toBe(list[1]);
    expect(sorted[1]).toBe(list[0]);
    expect(sorted[2]).toBe(list[2]);
    expect(sorted[0]).toBe(read(h, Post, 'p1'));
  });

  test('process receives the list and the args as given', () => {
    const h = setup();
    seedPosts(h);
    const list = read(h, posts, { group: 'r' });
    read(h, sortedPosts, { group: 'r', orderBy: 'title' });
    expect(sortProcess).toHaveBeenCalledTimes(1);
    expect(sortProcess.mock.calls[0]![0]).toBe(list);
    expect(sortProcess.mock.calls[0]!.slice(1)).toEqual([{ group: 'r', orderBy: 'title' }]);
  });

  test('without orderBy the input list is returned as is', () => {
    const h = setup();
    seedPosts(h);
    const list = read(h, posts, { group: 'r' });
    expect(read(h, sortedPosts, { group: 'r' })).toBe(list);
  });

  test('after a push the query is still sorted and holds the new post', () => {
    const h = setup();
    seedPosts(h);
    const before = read(h, sortedPosts, { group: 'r', orderBy: 'title' })!;
    h.store.dispatch(h.cache.set(posts.push, { group: 'r' }, post('p4', 'Avocado')));
    const after = read(h, sortedPosts, { group: 'r', orderBy: 'title' })!;
    expect(after).not.toBe(before);
    expect(after.map(item => item.title)).toEqual(['Apple', 'Avocado', 'Banana', 'Cherry']);
    // Posts that did not change are the same objects; the collection keeps its pushed order.
    expect(after[0]).toBe(before[0]);
    expect(after[2]).toBe(before[1]);
    expect(ids(read(h, posts, { group: 'r' }))).toEqual(['p2', 'p1', 'p3', 'p4']);
    expect(read(h, sortedPosts, { group: 'r' })).toBe(read(h, posts, { group: 'r' }));
  });

  test('with the default argsKey, orderBy names its own list, which push also reaches', () => {
    const allPosts = new Collection([Post]);
    const sorted = new Query(allPosts, (entries, { orderBy }: { orderBy?: OrderBy } = {}) =>
      orderBy ? [...entries].sort((a, b) => String(a[orderBy]).localeCompare(String(b[orderBy]))) : entries,
    );
    const h = setup();
    expect(read(h, sorted, { group: 'r', orderBy: 'title' })).toBeUndefined();
    h.store.dispatch(
      h.cache.set(allPosts, { group: 'r', orderBy: 'title' }, [post('p2', 'Banana'), post('p1', 'Apple')]),
    );
    expect(read(h, sorted, { group: 'r' })).toBeUndefined();
    expect(read(h, sorted, { group: 'r', orderBy: 'title' })!.map(item => item.title)).toEqual(['Apple', 'Banana']);
    // orderBy is a non-filter key by default, so a push with the group reaches the ordered list.
    h.store.dispatch(h.cache.set(allPosts.push, { group: 'r' }, post('p3', 'Aardvark')));
    expect(read(h, sorted, { group: 'r', orderBy: 'title' })!.map(item => item.title)).toEqual([
      'Aardvark',
      'Apple',
      'Banana',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Count
// ---------------------------------------------------------------------------------------------

describe('count over All', () => {
  test('undefined (not 0) before any User is cached, and process is not called', () => {
    const h = setup();
    expect(read(h, userCount)).toBeUndefined();
    expect(read(h, userCount, {})).toBeUndefined();
    expect(countProcess).not.toHaveBeenCalled();
  });

  test('counts the live rows after each write', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(User, { id: 'u1', name: 'Ann' }));
    expect(read(h, userCount)).toBe(1);
    h.store.dispatch(
      h.cache.set(
        [User],
        [
          { id: 'u2', name: 'Bob' },
          { id: 'u3', name: 'Cy' },
        ],
      ),
    );
    expect(read(h, userCount)).toBe(3);
    h.store.dispatch(h.cache.set(User, { id: 'u1', name: 'Ann B.' }));
    expect(read(h, userCount)).toBe(3);
  });

  test('with no args process receives only the entries', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(User, { id: 'u1', name: 'Ann' }));
    read(h, userCount);
    expect(countProcess).toHaveBeenCalledTimes(1);
    expect(countProcess.mock.calls[0]).toHaveLength(1);
  });

  test('0 once the table exists with no live rows: the only user deleted, or an empty All response', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(User, { id: 'u1', name: 'Ann' }));
    expect(read(h, userCount)).toBe(1);
    h.store.dispatch(h.cache.set(new Invalidate(User), 'u1'));
    expect(read(h, userCount)).toBe(0);

    const other = setup();
    other.store.dispatch(other.cache.setResponse(endpoint('GET /users', new All(User)), []));
    expect(read(other, userCount)).toBe(0);
  });

  test('a filtered count reads its filter from args, with a default when there are none', () => {
    const h = setup();
    h.store.dispatch(
      h.cache.set(new All(Member), [
        { id: 'm1', name: 'Ann', isAdmin: true },
        { id: 'm2', name: 'Bob', isAdmin: false },
        { id: 'm3', name: 'Cy', isAdmin: true },
      ]),
    );
    expect(read(h, memberCount)).toBe(3);
    expect(read(h, memberCount, { isAdmin: true })).toBe(2);
    expect(read(h, memberCount, { isAdmin: false })).toBe(1);
    expect(memberCountProcess.mock.calls[0]).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Group-by
// ---------------------------------------------------------------------------------------------

describe('group-by', () => {
  test('groups by author id, entries in table order, the same objects as the All read', () => {
    const h = setup();
    h.store.dispatch(
      h.cache.set(new All(Post), [
        post('p1', 'One', 'u1'),
        post('p2', 'Two', 'u2'),
        post('p3', 'Three', 'u1'),
        post('p4', 'Four', 'u2'),
      ]),
    );
    const all = read(h, new All(Post))!;
    const groups = read(h, postsByAuthor)!;
    expect(Object.keys(groups)).toEqual(['u1', 'u2']);
    expect(ids(groups.u1)).toEqual(['p1', 'p3']);
    expect(ids(groups.u2)).toEqual(['p2', 'p4']);
    expect(groups.u1![0]).toBe(all[0]);
    expect(groups.u2![1]).toBe(all[3]);
  });

  test('undefined while the Post table is missing', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(User, { id: 'u1', name: 'Ann' }));
    expect(read(h, postsByAuthor)).toBeUndefined();
    expect(groupProcess).not.toHaveBeenCalled();
  });

  test('[] and [{}] are one read: the same output object, one call', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(new All(Post), [post('p1', 'One')]));
    const first = read(h, postsByAuthor);
    expect(read(h, postsByAuthor, {})).toBe(first);
    expect(read(h, postsByAuthor, undefined)).toBe(first);
    expect(groupProcess).toHaveBeenCalledTimes(1);
  });
});

// ---------------------------------------------------------------------------------------------
// 4. Join
// ---------------------------------------------------------------------------------------------

describe('join with fallback over a plain object', () => {
  const BTC = { product_id: 'BTC' };

  test('uses the ticker price when the ticker is cached', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(Ticker, { product_id: 'BTC', price: 101 }));
    h.store.dispatch(h.cache.set(Stats, { product_id: 'BTC', last: 99 }));
    expect(read(h, currentPrice, BTC)).toBe(101);
    const [members] = joinProcess.mock.calls[0]!;
    expect(members.ticker).toBe(read(h, Ticker, 'BTC'));
    expect(members.stats).toBe(read(h, Stats, 'BTC'));
  });

  test('falls back to stats.last when only Stats is cached; the absent member is undefined', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(Stats, { product_id: 'BTC', last: 99 }));
    expect(read(h, currentPrice, BTC)).toBe(99);
    const [members] = joinProcess.mock.calls[0]!;
    expect(members.ticker).toBeUndefined();
    expect(members.stats).toBe(read(h, Stats, 'BTC'));
  });

  test('with neither cached, process still runs, and its undefined reads as undefined', () => {
    const h = setup();
    expect(read(h, currentPrice, BTC)).toBeUndefined();
    expect(joinProcess).toHaveBeenCalledTimes(1);
    expect(joinProcess.mock.calls[0]![0]).toEqual({ ticker: undefined, stats: undefined });
  });

  test('a deleted member makes the join invalid: undefined, and process is not called', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(Ticker, { product_id: 'BTC', price: 101 }));
    h.store.dispatch(h.cache.set(Stats, { product_id: 'BTC', last: 99 }));
    h.store.dispatch(h.cache.set(new Invalidate(Ticker), 'BTC'));
    expect(read(h, currentPrice, BTC)).toBeUndefined();
    expect(read(h, quote, BTC)).toBeUndefined();
    expect(joinProcess).not.toHaveBeenCalled();
    expect(quoteProcess).not.toHaveBeenCalled();
  });

  test('each member is read with the args (other products are not mixed in)', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(Ticker, { product_id: 'ETH', price: 5 }));
    h.store.dispatch(h.cache.set(Stats, { product_id: 'BTC', last: 99 }));
    expect(read(h, quote, BTC)).toEqual({ price: 99, source: 'stats' });
    expect(read(h, quote, { product_id: 'ETH' })).toEqual({ price: 5, source: 'ticker' });
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Memoization
// ---------------------------------------------------------------------------------------------

describe('memoization of the output', () => {
  const byTitle = { group: 'r', orderBy: 'title' } as const;

  test('same state and same args: the same object, process not called again', () => {
    const h = setup();
    seedPosts(h);
    const first = read(h, sortedPosts, byTitle);
    const second = read(h, sortedPosts, { ...byTitle });
    expect(second).toBe(first);
    expect(second).toEqual(first);
    expect(sortProcess).toHaveBeenCalledTimes(1);
  });

  test('args equal by value in another key order: the same object, not re-run', () => {
    const h = setup();
    seedPosts(h);
    const first = read(h, sortedPosts, { group: 'r', orderBy: 'title' });
    expect(read(h, sortedPosts, { orderBy: 'title', group: 'r' })).toBe(first);
    expect(sortProcess).toHaveBeenCalledTimes(1);
  });

  test('unrelated writes keep the output and do not call process', () => {
    const h = setup();
    seedPosts(h);
    const first = read(h, sortedPosts, byTitle)!;
    const snapshotOf = first.map(item => item.title);

    h.store.dispatch({ type: 'other/bump' });
    expect(read(h, sortedPosts, byTitle)).toBe(first);

    h.store.dispatch(h.cache.set(Ticker, { product_id: 'BTC', price: 1 }));
    expect(read(h, sortedPosts, byTitle)).toBe(first);

    // Same tables, rows the query does not read: a post of another list, a user who wrote nothing here.
    h.store.dispatch(h.cache.set(Post, post('p99', 'Elsewhere', 'u9')));
    h.store.dispatch(h.cache.set(User, { id: 'u7', name: 'Nobody' }));
    expect(read(h, sortedPosts, byTitle)).toBe(first);

    // Another list of the same collection table.
    seedPosts(h, 'vue');
    expect(read(h, sortedPosts, byTitle)).toBe(first);

    expect(first.map(item => item.title)).toEqual(snapshotOf);
    expect(sortProcess).toHaveBeenCalledTimes(1);
  });

  test('a write with identical content (a no-op write) keeps the output', () => {
    const h = setup();
    seedPosts(h);
    const first = read(h, sortedPosts, byTitle);
    seedPosts(h);
    h.store.dispatch(h.cache.set(Post, post('p1', 'Cherry', 'u2')));
    expect(read(h, sortedPosts, byTitle)).toBe(first);
    expect(sortProcess).toHaveBeenCalledTimes(1);
  });

  test('a relevant write gives a new output and exactly one more call', () => {
    const h = setup();
    seedPosts(h);
    const first = read(h, sortedPosts, byTitle)!;
    h.store.dispatch(h.cache.set(Post, { id: 'p1', title: 'Aaa' }));
    const second = read(h, sortedPosts, byTitle)!;
    expect(second).not.toBe(first);
    expect(second.map(item => item.title)).toEqual(['Aaa', 'Apple', 'Banana']);
    expect(second[1]).toBe(first[0]);
    expect(sortProcess).toHaveBeenCalledTimes(2);
    expect(read(h, sortedPosts, byTitle)).toBe(second);
    expect(sortProcess).toHaveBeenCalledTimes(2);
  });

  test('a change to a nested row the query reads (an author) re-runs process', () => {
    const h = setup();
    seedPosts(h);
    const first = read(h, sortedPosts, byTitle)!;
    h.store.dispatch(h.cache.set(User, { id: 'u2', name: 'Renamed' }));
    const second = read(h, sortedPosts, byTitle)!;
    expect(second).not.toBe(first);
    expect(second[2]!.author.name).toBe('Renamed');
    expect(second[0]).toBe(first[0]);
    expect(sortProcess).toHaveBeenCalledTimes(2);
  });

  test('different args keep separate outputs that do not evict each other (A, B, A)', () => {
    const h = setup();
    seedPosts(h);
    const a = read(h, sortedPosts, { group: 'r', orderBy: 'title' })!;
    const b = read(h, sortedPosts, { group: 'r', orderBy: 'id' })!;
    expect(b).not.toBe(a);
    expect(ids(a)).toEqual(['p3', 'p2', 'p1']);
    expect(ids(b)).toEqual(['p1', 'p2', 'p3']);
    expect(read(h, sortedPosts, { group: 'r', orderBy: 'title' })).toBe(a);
    expect(read(h, sortedPosts, { group: 'r', orderBy: 'id' })).toBe(b);
    expect(sortProcess).toHaveBeenCalledTimes(2);
  });

  test('a count over All is not re-run after writes to other tables', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(User, { id: 'u1', name: 'Ann' }));
    expect(read(h, userCount)).toBe(1);
    seedPosts(h, 'other'); // writes Post and [Post]; its authors u1/u2 also touch User
    expect(read(h, userCount)).toBe(2);
    expect(countProcess).toHaveBeenCalledTimes(2);
    h.store.dispatch(h.cache.set(Ticker, { product_id: 'BTC', price: 1 }));
    h.store.dispatch({ type: 'other/bump' });
    expect(read(h, userCount)).toBe(2);
    expect(countProcess).toHaveBeenCalledTimes(2);
  });

  test('a group-by over All keeps its output after a write to another table', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(new All(Post), [post('p1', 'One', 'u1'), post('p2', 'Two', 'u2')]));
    const first = read(h, postsByAuthor);
    h.store.dispatch(h.cache.set(Ticker, { product_id: 'BTC', price: 1 }));
    expect(read(h, postsByAuthor)).toBe(first);
    h.store.dispatch(h.cache.set(Post, { id: 'p2', title: 'Two!' }));
    const second = read(h, postsByAuthor)!;
    expect(second).not.toBe(first);
    expect(second.u1![0]).toBe(first!.u1![0]);
    expect(groupProcess).toHaveBeenCalledTimes(2);
  });

  test('a join rebuilt after an unrelated Ticker row changes does not re-run process', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(Ticker, { product_id: 'BTC', price: 101 }));
    h.store.dispatch(h.cache.set(Stats, { product_id: 'BTC', last: 99 }));
    const first = read(h, quote, { product_id: 'BTC' });
    expect(first).toEqual({ price: 101, source: 'ticker' });
    h.store.dispatch(h.cache.set(Ticker, { product_id: 'ETH', price: 5 }));
    h.store.dispatch(h.cache.set(Stats, { product_id: 'ETH', last: 4 }));
    expect(read(h, quote, { product_id: 'BTC' })).toBe(first);
    expect(quoteProcess).toHaveBeenCalledTimes(1);

    h.store.dispatch(h.cache.set(Ticker, { product_id: 'BTC', price: 102 }));
    const second = read(h, quote, { product_id: 'BTC' });
    expect(second).not.toBe(first);
    expect(second).toEqual({ price: 102, source: 'ticker' });
    expect(quoteProcess).toHaveBeenCalledTimes(2);
  });

  test('a join with an absent member is stable too, and reacts when the member appears', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(Stats, { product_id: 'BTC', last: 99 }));
    const first = read(h, quote, { product_id: 'BTC' });
    h.store.dispatch(h.cache.set(Ticker, { product_id: 'ETH', price: 5 }));
    expect(read(h, quote, { product_id: 'BTC' })).toBe(first);
    expect(quoteProcess).toHaveBeenCalledTimes(1);
    h.store.dispatch(h.cache.set(Ticker, { product_id: 'BTC', price: 100 }));
    expect(read(h, quote, { product_id: 'BTC' })).toEqual({ price: 100, source: 'ticker' });
    expect(quoteProcess).toHaveBeenCalledTimes(2);
  });

  test('lens A → B → A: the second A read returns the first A output, process runs once per lens', () => {
    const byEquity = jest.fn((list: Company[]) => [...list].sort((a, b) => a.pct_equity - b.pct_equity));
    const ranked = new Query(companyList, byEquity);
    const h = setup();
    h.store.dispatch(h.cache.setResponse(getCompanies, { portfolio: 'A' }, companies));
    h.store.dispatch(
      h.cache.setResponse(getCompanies, { portfolio: 'B' }, [
        { id: '1', pct_equity: 0.9, shares: 1 },
        { id: '2', pct_equity: 0.1, shares: 2 },
      ]),
    );
    const a = read(h, ranked, { portfolio: 'A' })!;
    const b = read(h, ranked, { portfolio: 'B' })!;
    expect(a.map(item => [item.id, item.pct_equity])).toEqual([
      ['2', 0.2],
      ['1', 0.5],
    ]);
    expect(b.map(item => [item.id, item.pct_equity])).toEqual([
      ['2', 0.1],
      ['1', 0.9],
    ]);
    expect(b).not.toBe(a);
    expect(b[0]).not.toBe(a[0]);
    const again = read(h, ranked, { portfolio: 'A' })!;
    expect(again).toBe(a);
    expect(again[0]).toBe(a[0]);
    expect(byEquity).toHaveBeenCalledTimes(2);
  });

  test('memos belong to one cache: two stores never share an output', () => {
    const one = setup();
    const two = setup();
    seedPosts(one);
    two.store.dispatch(two.cache.set(posts, { group: 'r' }, [post('x1', 'Zed'), post('x2', 'Yak')]));
    const a = read(one, sortedPosts, byTitle)!;
    const b = read(two, sortedPosts, byTitle)!;
    expect(a.map(item => item.title)).toEqual(['Apple', 'Banana', 'Cherry']);
    expect(b.map(item => item.title)).toEqual(['Yak', 'Zed']);
    expect(read(one, sortedPosts, byTitle)).toBe(a);
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Inner kinds
// ---------------------------------------------------------------------------------------------

describe('inner queryables', () => {
  test('Query over Query receives the inner output; skipped when the inner is undefined', () => {
    const titles = jest.fn((sorted: Post[]) => sorted.map(item => item.title));
    const sortedTitles = new Query(sortedPosts, titles);
    const h = setup();
    expect(read(h, sortedTitles, byTitleArgs())).toBeUndefined();
    expect(titles).not.toHaveBeenCalled();

    seedPosts(h);
    const first = read(h, sortedTitles, byTitleArgs());
    expect(first).toEqual(['Apple', 'Banana', 'Cherry']);
    expect(titles.mock.calls[0]![0]).toBe(read(h, sortedPosts, byTitleArgs()));
    h.store.dispatch({ type: 'other/bump' });
    h.store.dispatch(h.cache.set(Post, post('p99', 'Elsewhere')));
    expect(read(h, sortedTitles, byTitleArgs())).toBe(first);
    expect(titles).toHaveBeenCalledTimes(1);
  });

  test('Query over a Query whose process returned undefined is skipped', () => {
    const firstTitle = jest.fn((list: Post[]) => list[0]?.title);
    const first = new Query(posts, firstTitle);
    const outer = jest.fn((title: string) => title.length);
    const firstTitleLength = new Query(first, outer);
    const h = setup();
    h.store.dispatch(h.cache.set(posts, { group: 'r' }, []));
    expect(read(h, firstTitleLength, { group: 'r' })).toBeUndefined();
    expect(firstTitle).toHaveBeenCalledTimes(1);
    expect(outer).not.toHaveBeenCalled();
    h.store.dispatch(h.cache.set(posts.push, { group: 'r' }, post('p1', 'Hello')));
    expect(read(h, firstTitleLength, { group: 'r' })).toBe(5);
    expect(outer).toHaveBeenCalledTimes(1);
  });

  test('Query over Union receives the member entity; skipped when nothing matches', () => {
    const principal = new Union({ users: User, groups: Group }, 'type');
    const label = jest.fn((member: User | Group) => `${member instanceof Group ? 'group' : 'user'}:${member.name}`);
    const principalLabel = new Query(principal, label);
    const h = setup();
    h.store.dispatch(h.cache.set(principal, { id: 'g1', name: 'Admins', type: 'groups' }));
    expect(read(h, principalLabel, { id: 'g1', type: 'groups' })).toBe('group:Admins');
    expect(label.mock.calls[0]![0]).toBe(read(h, principal, { id: 'g1', type: 'groups' }));
    expect(read(h, principalLabel, { id: 'g1', type: 'users' })).toBeUndefined();
    expect(read(h, principalLabel, { id: 'u404', type: 'users' })).toBeUndefined();
    expect(label).toHaveBeenCalledTimes(1);
  });

  test('Query over an Entity, by a pk in args[0]', () => {
    const shout = jest.fn((user: User) => ({ loud: user.name.toUpperCase() }));
    const loudUser = new Query(User, shout);
    const h = setup();
    h.store.dispatch(h.cache.set(User, { id: 'u1', name: 'Ann' }));
    const first = read(h, loudUser, 'u1');
    expect(first).toEqual({ loud: 'ANN' });
    expect(shout.mock.calls[0]![0]).toBe(read(h, User, 'u1'));
    expect(shout.mock.calls[0]!.slice(1)).toEqual(['u1']);
    h.store.dispatch(h.cache.set(User, { id: 'u2', name: 'Bob' }));
    expect(read(h, loudUser, 'u1')).toBe(first);
    expect(read(h, loudUser, 'u2')).toEqual({ loud: 'BOB' });
    expect(shout).toHaveBeenCalledTimes(2);
  });

  test('Query over an Entity, by an object args[0] whose pk is computed', () => {
    const priceOf = jest.fn((ticker: Ticker) => ticker.price);
    const tickerPrice = new Query(Ticker, priceOf);
    const h = setup();
    expect(read(h, tickerPrice, { product_id: 'BTC' })).toBeUndefined();
    h.store.dispatch(h.cache.set(Ticker, { product_id: 'BTC', price: 101 }));
    expect(read(h, tickerPrice, { product_id: 'BTC' })).toBe(101);
    expect(read(h, tickerPrice, { product_id: 'ETH' })).toBeUndefined();
    expect(priceOf).toHaveBeenCalledTimes(1);
  });

  test('Query over a Scalar root read receives the cells of the lens', () => {
    const cellCount = new Query(PortfolioScalar, cells => cells.length);
    const h = setup();
    expect(read(h, cellCount, { portfolio: 'A' })).toBeUndefined();
    h.store.dispatch(
      h.cache.setResponse(
        getColumnsMap,
        { portfolio: 'A' },
        { 1: { pct_equity: 0.5, shares: 10 }, 2: { pct_equity: 0.2, shares: 5 } },
      ),
    );
    expect(read(h, cellCount, { portfolio: 'A' })).toBe(2);
    expect(read(h, cellCount, { portfolio: 'B' })).toBeUndefined();
    expect(read(h, cellCount)).toBeUndefined();
  });

  test('a Scalar query is stable across writes to another lens and re-runs when its cells change', () => {
    const total = jest.fn((cells: Record<string, unknown>[]) => ({
      shares: cells.reduce((sum, cell) => sum + Number(cell.shares), 0),
    }));
    const totalShares = new Query(PortfolioScalar, total);
    const h = setup();
    h.store.dispatch(
      h.cache.setResponse(
        getColumnsMap,
        { portfolio: 'A' },
        { 1: { pct_equity: 0.5, shares: 10 }, 2: { pct_equity: 0.2, shares: 5 } },
      ),
    );
    const first = read(h, totalShares, { portfolio: 'A' });
    expect(first).toEqual({ shares: 15 });
    expect(total.mock.calls[0]![0]).toEqual([
      { pct_equity: 0.5, shares: 10 },
      { pct_equity: 0.2, shares: 5 },
    ]);
    h.store.dispatch(h.cache.setResponse(getColumnsMap, { portfolio: 'B' }, { 1: { pct_equity: 0.1, shares: 1 } }));
    expect(read(h, totalShares, { portfolio: 'A' })).toBe(first);
    expect(read(h, totalShares, { portfolio: 'B' })).toEqual({ shares: 1 });
    expect(total).toHaveBeenCalledTimes(2);
    h.store.dispatch(h.cache.setResponse(getColumnsMap, { portfolio: 'A' }, { 2: { shares: 6 } }));
    const second = read(h, totalShares, { portfolio: 'A' });
    expect(second).not.toBe(first);
    expect(second).toEqual({ shares: 16 });
    expect(total).toHaveBeenCalledTimes(3);
  });

  test('Query over lazy.query resolves the stored refs given as args[0]', () => {
    const buildings = new Lazy(() => [Building]);
    const names = jest.fn((list: Building[]) => list.map(item => item.name));
    const buildingNames = new Query(buildings.query, names);
    const h = setup();
    h.store.dispatch(
      h.cache.set(buildings, [
        { id: 'b1', name: 'North' },
        { id: 'b2', name: 'South' },
      ]),
    );
    expect(read(h, buildingNames, ['b2', 'missing', 'b1'])).toEqual(['South', 'North']);
    expect(read(h, buildingNames)).toBeUndefined();
    expect(names).toHaveBeenCalledTimes(1);
  });

  test('Query over a Collection of Values receives the map', () => {
    const team = new Collection(new Values(User));
    const keys = jest.fn((map: Record<string, User>) => Object.keys(map).map(key => `${key}=${map[key]!.name}`));
    const teamKeys = new Query(team, keys);
    const h = setup();
    expect(read(h, teamKeys, { team: 'a' })).toBeUndefined();
    h.store.dispatch(
      h.cache.set(team, { team: 'a' }, { lead: { id: 'u1', name: 'Ann' }, dev: { id: 'u2', name: 'Bob' } }),
    );
    expect(read(h, teamKeys, { team: 'a' })).toEqual(['lead=Ann', 'dev=Bob']);
    expect(keys.mock.calls[0]![0]).toBe(read(h, team, { team: 'a' }));
    expect(read(h, teamKeys, { team: 'b' })).toBeUndefined();
    expect(keys).toHaveBeenCalledTimes(1);
  });
});

// ---------------------------------------------------------------------------------------------
// 7. When process is skipped; undefined results
// ---------------------------------------------------------------------------------------------

describe('no inner value: undefined, and process is not called', () => {
  test('an Entity row that is missing or deleted', () => {
    const nameProcess = jest.fn((user: User) => user.name);
    const userName = new Query(User, nameProcess);
    const h = setup();
    expect(read(h, userName, 'u1')).toBeUndefined();
    h.store.dispatch(h.cache.set(User, { id: 'u1', name: 'Ann' }));
    expect(read(h, userName, 'u1')).toBe('Ann');
    h.store.dispatch(h.cache.set(new Invalidate(User), 'u1'));
    expect(read(h, userName, 'u1')).toBeUndefined();
    expect(nameProcess).toHaveBeenCalledTimes(1);
  });

  test('a Collection row that is absent (an empty list is present)', () => {
    const h = setup();
    expect(read(h, sortedPosts, { group: 'r', orderBy: 'title' })).toBeUndefined();
    expect(sortProcess).not.toHaveBeenCalled();
    h.store.dispatch(h.cache.set(posts, { group: 'r' }, []));
    expect(read(h, sortedPosts, { group: 'r', orderBy: 'title' })).toEqual([]);
    expect(sortProcess).toHaveBeenCalledTimes(1);
  });

  test('a process that returns undefined reads as undefined', () => {
    const nothing = jest.fn((_users: User[]): string | undefined => undefined);
    const none = new Query(new All(User), nothing);
    const h = setup();
    h.store.dispatch(h.cache.set(User, { id: 'u1', name: 'Ann' }));
    expect(read(h, none)).toBeUndefined();
    expect(read(h, none)).toBeUndefined();
    expect(nothing).toHaveBeenCalledTimes(1);
  });
});

describe('selectQuery never throws for absent data', () => {
  test.each([
    ['sort, unknown group', sortedPosts, [{ group: 'nope', orderBy: 'title' }]],
    ['sort, null args', sortedPosts, [null]],
    ['count, empty store', userCount, []],
    ['group-by, empty store', postsByAuthor, [{}]],
    ['entity query, no args', new Query(User, (user: User) => user.name), []],
    ['entity query, empty pk', new Query(User, (user: User) => user.name), ['']],
    ['entity query, null', new Query(User, (user: User) => user.name), [null]],
    ['scalar query, no lens', new Query(PortfolioScalar, cells => cells.length), [{}]],
    ['query over query', new Query(sortedPosts, (list: Post[]) => list.length), [{ group: 'r' }]],
  ] as const)('%s → undefined', (_name, query, args) => {
    const h = setup();
    h.store.dispatch(h.cache.set(Ticker, { product_id: 'BTC', price: 1 }));
    expect(() => read(h, query, ...args)).not.toThrow();
    expect(read(h, query, ...args)).toBeUndefined();
  });

  test('a join over an empty store runs with undefined members rather than throwing', () => {
    const h = setup();
    expect(read(h, quote, { product_id: 'NONE' })).toEqual({ price: undefined, source: 'stats' });
    expect(read(h, currentPrice)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// 8. As an endpoint's schema
// ---------------------------------------------------------------------------------------------

describe('a Query as an endpoint schema', () => {
  const getPosts = endpoint('GET /posts', sortedPosts);

  test('normalizes through the inner schema: the collection pk is the stored result', () => {
    const h = setup();
    h.store.dispatch(h.cache.setResponse(getPosts, { group: 'r' }, [post('p2', 'Banana'), post('p1', 'Apple')]));
    const state = h.store.getState().cache;
    expect(state.endpoints[getPosts.key({ group: 'r' })]).toBe('{"group":"r"}');
    expect(state.entities['[Post]']).toEqual({ '{"group":"r"}': ['p2', 'p1'] });
    expect(state.entities.Post!.p1).toEqual({ id: 'p1', title: 'Apple', author: 'u1' });
  });

  test('selectResponse data is the processed value, the same object selectQuery returns', () => {
    const h = setup();
    const args = { group: 'r', orderBy: 'title' };
    h.store.dispatch(h.cache.setResponse(getPosts, args, [post('p2', 'Banana'), post('p1', 'Apple')]));
    const response = h.cache.selectResponse(h.store.getState(), getPosts, args);
    expect(response.expiryStatus).toBe('valid');
    expect((response.data as Post[]).map(item => item.title)).toEqual(['Apple', 'Banana']);
    expect(read(h, sortedPosts, args)).toBe(response.data);
    expect(h.cache.selectResponse(h.store.getState(), getPosts, args).data).toBe(response.data);
    expect(sortProcess).toHaveBeenCalledTimes(1);
    // Without orderBy the data is the collection read itself.
    const plain = h.cache.selectResponse(h.store.getState(), getPosts, { group: 'r' });
    expect(plain.data).toBe(read(h, posts, { group: 'r' }));
  });

  test('a Query over All as an endpoint keeps no result and reads the table', () => {
    const getUserCount = endpoint('GET /users', userCount);
    const h = setup();
    h.store.dispatch(
      h.cache.setResponse(getUserCount, [
        { id: 'u1', name: 'Ann' },
        { id: 'u2', name: 'Bob' },
      ]),
    );
    expect(Object.keys(h.store.getState().cache.endpoints)).toEqual([]);
    const response = h.cache.selectResponse(h.store.getState(), getUserCount);
    expect(response.data).toBe(2);
    expect(response.expiryStatus).toBe('valid');
    expect(read(h, userCount)).toBe(2);
    expect(countProcess).toHaveBeenCalledTimes(1);
  });

  test('a deleted inner value reports invalid, as the inner schema would, without calling process', () => {
    const userName = jest.fn((user: User) => user.name);
    const getUser = endpoint('GET /users/:id', new Query(User, userName));
    const h = setup();
    h.store.dispatch(h.cache.setResponse(getUser, { id: 'u1' }, { id: 'u1', name: 'Ann' }));
    expect(h.cache.selectResponse(h.store.getState(), getUser, { id: 'u1' })).toMatchObject({
      data: 'Ann',
      expiryStatus: 'valid',
    });
    h.store.dispatch(h.cache.set(new Invalidate(User), 'u1'));
    const response = h.cache.selectResponse(h.store.getState(), getUser, { id: 'u1' });
    expect(response.data).toBeUndefined();
    expect(response.expiryStatus).toBe('invalid');
    expect(userName).toHaveBeenCalledTimes(1);
  });

  test('cache.set through a Query writes the inner collection', () => {
    const h = setup();
    h.store.dispatch(h.cache.set(sortedPosts, { group: 'r' }, [post('p1', 'B'), post('p2', 'A')]));
    expect(h.store.getState().cache.entities['[Post]']).toEqual({ '{"group":"r"}': ['p1', 'p2'] });
    expect(ids(read(h, sortedPosts, { group: 'r', orderBy: 'title' }))).toEqual(['p2', 'p1']);
  });
});

// ---------------------------------------------------------------------------------------------
// 9. Errors
// ---------------------------------------------------------------------------------------------

describe('errors', () => {
  test('new Query without a process function throws INVALID_SCHEMA', () => {
    // @ts-expect-error process is required
    const missing = catchError(() => new Query(User));
    const notFunction = catchError(() => new Query(User, 'x' as never));
    for (const error of [missing, notFunction]) {
      expect(error.code).toBe(ErrorCode.INVALID_SCHEMA);
      expect(error.message).toMatch(/process/);
    }
  });

  test('an exception thrown by process propagates unchanged', () => {
    const boom = new Error('boom');
    const failing = new Query(new All(User), () => {
      throw boom;
    });
    const h = setup();
    h.store.dispatch(h.cache.set(User, { id: 'u1', name: 'Ann' }));
    const before = h.store.getState();
    let thrown: unknown;
    try {
      read(h, failing);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBe(boom);
    expect(h.store.getState()).toBe(before);
  });

  test('a throw is not memoized: the next read calls process again', () => {
    let fail = true;
    const flakyProcess = jest.fn((users: User[]) => {
      if (fail) throw new Error('not yet');
      return users.length;
    });
    const flaky = new Query(new All(User), flakyProcess);
    const h = setup();
    h.store.dispatch(h.cache.set(User, { id: 'u1', name: 'Ann' }));
    expect(() => read(h, flaky)).toThrow('not yet');
    fail = false;
    expect(read(h, flaky)).toBe(1);
    expect(flakyProcess).toHaveBeenCalledTimes(2);
  });

  test('a normalize error through a Query throws and leaves the store unchanged', () => {
    const h = setup();
    seedPosts(h);
    const before = h.store.getState();
    const error = catchError(() => h.store.dispatch(h.cache.set(sortedPosts, { group: 'r' }, [{ title: 'no id' }])));
    expect(error.code).toBe(ErrorCode.MISSING_PK);
    expect(h.store.getState()).toBe(before);
  });
});

describe('args a key cannot tell apart', () => {
  class Tags extends Entity {
    id = '';
    tag = '';
    static override key = 'TagPost';
  }
  const byTag = new Query(new All(Tags), (items: Tags[], filter?: unknown) => {
    const match = (tag: string): boolean =>
      typeof filter === 'function'
        ? (filter as (tag: string) => boolean)(tag)
        : filter instanceof Set || filter instanceof Map
          ? filter.has(tag)
          : (filter as { matches?(tag: string): boolean }).matches!(tag);
    return items.filter(item => match(item.tag)).map(item => item.id);
  });
  class Hidden {
    readonly #tag: string;
    constructor(tag: string) {
      this.#tag = tag;
    }
    matches(tag: string) {
      return tag === this.#tag;
    }
  }

  test("a function, a Set, a Map or an instance without fields is refused with UNEXPECTED_INPUT, never read under another one's result", () => {
    const h = setup();
    h.store.dispatch(
      h.cache.set(new All(Tags), [
        { id: '1', tag: 'a' },
        { id: '2', tag: 'b' },
      ]),
    );
    const pairs = [
      [(tag: string) => tag === 'a', (tag: string) => tag === 'b'],
      [new Set(['a']), new Set(['b'])],
      [new Map([['a', 1]]), new Map([['b', 1]])],
      [new Hidden('a'), new Hidden('b')],
      [{ nested: [new Set(['a'])] }, { nested: [new Set(['b'])] }],
    ];
    for (const [a, b] of pairs) {
      for (const filter of [a, b]) {
        const error = catchError(() => read(h, byTag, filter));
        expect(error.code).toBe(ErrorCode.UNEXPECTED_INPUT);
        expect(error.message).toMatch(/a key cannot tell apart/);
      }
    }
    expect(catchError(() => read(h, byTag, { nested: [new Set(['a'])] })).message).toContain('.nested[0]');
    // The same refusal for a write keyed by such args, the store unchanged.
    const before = h.store.getState();
    expect(catchError(() => h.store.dispatch(h.cache.set(byTag, new Set(['a']), []))).code).toBe(
      ErrorCode.UNEXPECTED_INPUT,
    );
    expect(h.store.getState()).toBe(before);
  });

  test('an instance with fields of its own is keyed by them: different ones read apart', () => {
    class Filter {
      constructor(readonly tag: string) {}
      matches(tag: string) {
        return tag === this.tag;
      }
    }
    const h = setup();
    h.store.dispatch(
      h.cache.set(new All(Tags), [
        { id: '1', tag: 'a' },
        { id: '2', tag: 'b' },
      ]),
    );
    expect(read(h, byTag, new Filter('a'))).toEqual(['1']);
    expect(read(h, byTag, new Filter('b'))).toEqual(['2']);
  });
});

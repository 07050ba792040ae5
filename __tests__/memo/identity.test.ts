/**
 * Memoization and referential equality of reads (docs/architecture.md, "Reads and the memo model"): which objects must stay the same
 * (`toBe`) and which must be new (`not.toBe`) after each kind of store update.
 */
import { All } from '../../src/index';
import { Comment, Post, User } from '../fixtures/schemas';
import { Article, Stats, Ticker, TickerJoin } from '../fixtures/readSchemas';
import { makeStore } from '../fixtures/store';

const posts = new All(Post);

/** p1 and p2 by u1, p3 by u2; the comments are by u3, so only the authors tie posts to users. */
function setup() {
  const { cache, store } = makeStore();
  const write = (schema: unknown, ...argsAndValue: unknown[]) =>
    store.dispatch(cache.set(schema, ...(argsAndValue as [unknown])));
  const read = <S>(schema: S, ...args: unknown[]) => cache.selectQuery(store.getState(), schema, ...args);
  write(
    [Post],
    [
      {
        id: 'p1',
        title: 'One',
        author: { id: 'u1', name: 'Ada' },
        comments: [{ id: 'c1', body: 'hi', author: { id: 'u3', name: 'Cy' } }],
      },
      { id: 'p2', title: 'Two', author: { id: 'u1', name: 'Ada' }, comments: [] },
      {
        id: 'p3',
        title: 'Three',
        author: { id: 'u2', name: 'Bob' },
        comments: [{ id: 'c2', body: 'yo', author: 'u3' }],
      },
    ],
  );
  return { cache, store, write, read };
}

function byId<T extends { id: string }>(list: readonly T[] | undefined, id: string): T {
  const found = list?.find(item => item.id === id);
  if (!found) throw new Error(`no ${id} in the list`);
  return found;
}

describe('same state', () => {
  test('the same read twice returns the same objects', () => {
    const { read } = setup();
    const list = read(posts);
    expect(list).toHaveLength(3);
    expect(read(posts)).toBe(list);
    expect(read(Post, 'p1')).toBe(byId(list, 'p1'));
    expect(read(Post, 'p1')).toBe(read(Post, 'p1'));
    expect(read(User, 'u1')).toBe(byId(list, 'p1').author);
    const join = read(TickerJoin, { product_id: 'BTC' });
    expect(read(TickerJoin, { product_id: 'BTC' })).toBe(join);
  });

  test('args equal by value, in any key order, give the same result', () => {
    const { write, read } = setup();
    write(Ticker, { product_id: 'BTC', price: 1 });
    write(Stats, { product_id: 'BTC', last: 2 });
    const join = read(TickerJoin, { product_id: 'BTC', venue: 'x' });
    expect(join?.ticker?.price).toBe(1);
    expect(read(TickerJoin, { venue: 'x', product_id: 'BTC' })).toBe(join);
    expect(read(TickerJoin, { product_id: 'BTC', venue: 'x' })).toBe(join);
    expect(read(User, { name: 'anything', id: 'u1' })).toBe(read(User, { id: 'u1', name: 'anything' }));
  });

  test('two different args interleaved (A, B, A) both stay cached', () => {
    const { write, read } = setup();
    write(
      [Ticker],
      [
        { product_id: 'BTC', price: 1 },
        { product_id: 'ETH', price: 2 },
      ],
    );
    write(
      [Stats],
      [
        { product_id: 'BTC', last: 3 },
        { product_id: 'ETH', last: 4 },
      ],
    );
    const a = read(TickerJoin, { product_id: 'BTC' });
    const b = read(TickerJoin, { product_id: 'ETH' });
    expect(a).not.toBe(b);
    expect(b?.ticker?.price).toBe(2);
    expect(read(TickerJoin, { product_id: 'BTC' })).toBe(a);
    expect(read(TickerJoin, { product_id: 'ETH' })).toBe(b);
    expect(read(TickerJoin, { product_id: 'BTC' })).toBe(a);
  });

  test('[] and [{}] for an All read give the same result', () => {
    const { read } = setup();
    const list = read(posts);
    expect(list).toHaveLength(3);
    expect(read(posts, {})).toBe(list);
    expect(read(posts)).toBe(list);
  });
});

describe('unrelated updates keep the whole result', () => {
  test('a write to another table', () => {
    const { store, write, read } = setup();
    const list = read(posts);
    const join = read(TickerJoin, { product_id: 'BTC' });
    const before = store.getState();
    write(Article, { id: 'a1', title: 'Elsewhere' });
    expect(store.getState()).not.toBe(before);
    expect(read(posts)).toBe(list);
    expect(read(TickerJoin, { product_id: 'BTC' })).toBe(join);
  });

  test('an action for another reducer ({ type: "other/bump" })', () => {
    const { store, read } = setup();
    const list = read(posts);
    const p1 = read(Post, 'p1');
    store.dispatch({ type: 'other/bump' });
    expect((store.getState() as { other: number }).other).toBe(1);
    expect(read(posts)).toBe(list);
    expect(read(Post, 'p1')).toBe(p1);
  });

  test('a row that was not read (a new user in a table the read visits)', () => {
    const { cache, store, write, read } = setup();
    const list = read(posts);
    const p1 = read(Post, 'p1');
    const usersBefore = store.getState()[cache.reducerPath].entities['User'];
    write(User, { id: 'u4', name: 'Dee' });
    expect(store.getState()[cache.reducerPath].entities['User']).not.toBe(usersBefore);
    expect(read(posts)).toBe(list);
    expect(read(Post, 'p1')).toBe(p1);
  });

  test('an identical rewrite (a no-op write), even a later one that only moves meta forward', () => {
    const { cache, store, write, read } = setup();
    const list = read(posts);
    const p1 = byId(list, 'p1');
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 5_000);
    try {
      const entitiesBefore = store.getState()[cache.reducerPath].entities;
      write(Post, { id: 'p1', title: 'One', author: { id: 'u1', name: 'Ada' } });
      expect(store.getState()[cache.reducerPath].entities).toBe(entitiesBefore);
      expect(read(posts)).toBe(list);
      expect(read(Post, 'p1')).toBe(p1);
    } finally {
      now.mockRestore();
    }
  });
});

describe('a changed row makes new objects only on its path', () => {
  test("post 1's author changes: post 1 and the list are new, the others are the same", () => {
    const { write, read } = setup();
    // p1 moves to its own author, u5; p2 stays with u1.
    write(Post, { id: 'p1', author: { id: 'u5', name: 'Eve' } });
    const list = read(posts);
    const [p1, p2, p3] = ['p1', 'p2', 'p3'].map(id => byId(list, id));
    expect(p1?.author.name).toBe('Eve');

    write(User, { id: 'u5', name: 'Eve Changed' });
    const next = read(posts);
    expect(next).not.toBe(list);
    expect(byId(next, 'p1')).not.toBe(p1);
    expect(byId(next, 'p1').author.name).toBe('Eve Changed');
    expect(byId(next, 'p2')).toBe(p2);
    expect(byId(next, 'p3')).toBe(p3);
    // Entities that do not depend on the changed row keep their identity, even inside a new parent.
    expect(byId(next, 'p1').comments[0]).toBe(p1?.comments[0]);
    expect(read(Post, 'p2')).toBe(p2);
  });

  test('a shared user updated: every post authored by them is new, the others are the same', () => {
    const { write, read } = setup();
    const list = read(posts);
    const [p1, p2, p3] = ['p1', 'p2', 'p3'].map(id => byId(list, id));
    const u2 = read(User, 'u2');
    const c1 = read(Comment, 'c1');

    write(User, { id: 'u1', name: 'Ada Lovelace' });
    const next = read(posts);
    expect(next).not.toBe(list);
    expect(byId(next, 'p1')).not.toBe(p1);
    expect(byId(next, 'p2')).not.toBe(p2);
    expect(byId(next, 'p1').author).toBe(byId(next, 'p2').author);
    expect(byId(next, 'p1').author.name).toBe('Ada Lovelace');
    expect(byId(next, 'p3')).toBe(p3);
    expect(read(User, 'u2')).toBe(u2);
    expect(read(Comment, 'c1')).toBe(c1);
    expect(byId(next, 'p1').comments[0]).toBe(c1);
  });

  test('a changed nested comment author renews the comment and its post only', () => {
    const { write, read } = setup();
    const list = read(posts);
    const [p1, p2, p3] = ['p1', 'p2', 'p3'].map(id => byId(list, id));
    const c1 = read(Comment, 'c1');
    write(User, { id: 'u3', name: 'Cy Changed' });
    const next = read(posts);
    expect(byId(next, 'p1')).not.toBe(p1);
    expect(byId(next, 'p3')).not.toBe(p3);
    expect(byId(next, 'p2')).toBe(p2);
    expect(read(Comment, 'c1')).not.toBe(c1);
    expect(byId(next, 'p1').author).toBe(p1?.author);
  });

  test('a changed join member renews the join object only', () => {
    const { write, read } = setup();
    write(Ticker, { product_id: 'BTC', price: 1 });
    write(Stats, { product_id: 'BTC', last: 2 });
    const join = read(TickerJoin, { product_id: 'BTC' });
    write(Ticker, { product_id: 'BTC', price: 5 });
    const next = read(TickerJoin, { product_id: 'BTC' });
    expect(next).not.toBe(join);
    expect(next?.ticker).not.toBe(join?.ticker);
    expect(next?.ticker?.price).toBe(5);
    expect(next?.stats).toBe(join?.stats);
  });
});

describe('a missing nested row appearing', () => {
  test('the parent that references it is new; unrelated parts are the same', () => {
    const { write, read } = setup();
    write(Article, { id: 'a1', title: 'Waiting', author: 'u9' });
    write(Article, { id: 'a2', title: 'Ready', author: 'u1' });
    const a1 = read(Article, 'a1');
    const a2 = read(Article, 'a2');
    const list = read(posts);
    expect(a1?.author).toBeUndefined();

    write(User, { id: 'u9', name: 'Nine' });
    const next = read(Article, 'a1');
    expect(next).not.toBe(a1);
    expect(next?.author.name).toBe('Nine');
    expect(read(Article, 'a2')).toBe(a2);
    expect(read(posts)).toBe(list);
  });

  test('a missing join member appearing renews the join', () => {
    const { write, read } = setup();
    write(Ticker, { product_id: 'BTC', price: 1 });
    const join = read(TickerJoin, { product_id: 'BTC' });
    expect(join?.stats).toBeUndefined();
    write(Stats, { product_id: 'BTC', last: 9 });
    const next = read(TickerJoin, { product_id: 'BTC' });
    expect(next).not.toBe(join);
    expect(next?.stats?.last).toBe(9);
    expect(next?.ticker).toBe(join?.ticker);
  });

  test('an All list gains a new row: the list is new, its old members the same', () => {
    const { write, read } = setup();
    const list = read(posts);
    write(Post, { id: 'p9', title: 'Nine', author: 'u1' });
    const next = read(posts);
    expect(next).not.toBe(list);
    expect(next).toHaveLength(4);
    for (const id of ['p1', 'p2', 'p3']) expect(byId(next, id)).toBe(byId(list, id));
  });
});

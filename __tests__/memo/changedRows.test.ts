/**
 * Reads skip changes to rows they did not read (docs/architecture.md, "Reads and the memo model"): the reducer records which keys each
 * write changed per table, and a read whose tables changed only elsewhere is served as it was,
 * while a read of any changed (or newly added, or removed) row is walked again.
 */
import { configureStore } from '@reduxjs/toolkit';
import { All, Collection, Entity, Invalidate, Query, Scalar, Values, createCache } from '../../src/index';
import { companyList, getColumnsMap, getCompanies, companies } from '../fixtures/company';
import { Post, User } from '../fixtures/schemas';
import { makeStore } from '../fixtures/store';

const A = { portfolio: 'A' };
const B = { portfolio: 'B' };

function companyStore() {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getCompanies, A, companies));
  store.dispatch(
    cache.setResponse(getColumnsMap, B, { 1: { pct_equity: 0.3, shares: 323 }, 2: { pct_equity: 0.1, shares: 7 } }),
  );
  const list = (params: object) => cache.selectQuery(store.getState(), companyList, params)!;
  return { cache, store, list };
}

describe('a change to rows a read did not read', () => {
  test('a cell written at one lens leaves the other lens read as it was, and the written lens sees it', () => {
    const { cache, store, list } = companyStore();
    const atA = list(A);
    const atB = list(B);
    store.dispatch(cache.set(getColumnsMap.schema, B, { 2: { shares: 8 } }));
    expect(list(A)).toBe(atA);
    const nextB = list(B);
    expect(nextB).not.toBe(atB);
    expect(nextB[1]!.shares).toBe(8);
    expect(nextB[0]).toBe(atB[0]);
  });

  test('the read at the untouched lens is not walked again at all (its lens is not even asked for)', () => {
    let lensCalls = 0;
    class Fund extends Entity {
      id = '';
      weight = 0;
      static override key = 'Fund';
    }
    const weight = new Scalar({
      lens: args => (lensCalls++, (args[0] as { portfolio?: string } | undefined)?.portfolio),
      key: 'weight',
      entity: Fund,
    });
    Fund.schema = { weight };
    const funds = new Collection([Fund], { argsKey: () => ({}) });
    const { cache, store } = makeStore();
    store.dispatch(
      cache.set(funds, A, [
        { id: '1', weight: 0.1 },
        { id: '2', weight: 0.2 },
      ]),
    );
    store.dispatch(cache.set(new Values(weight), B, { 1: { weight: 0.3 }, 2: { weight: 0.4 } }));
    const atA = cache.selectQuery(store.getState(), funds, A)!;
    cache.selectQuery(store.getState(), funds, B);
    store.dispatch(cache.set(new Values(weight), B, { 2: { weight: 0.5 } }));
    const calls = lensCalls;
    expect(cache.selectQuery(store.getState(), funds, A)).toBe(atA);
    expect(lensCalls).toBe(calls);
    expect(cache.selectQuery(store.getState(), funds, B)!.map(fund => fund.weight)).toEqual([0.3, 0.5]);
    expect(lensCalls).toBeGreaterThan(calls);
  });

  test('a post outside a filtered list keeps the list and its Query result; a post inside changes both', () => {
    const { cache, store } = makeStore();
    const byGroup = new Collection([Post], { argsKey: ({ group }: { group: string }) => ({ group }) });
    let runs = 0;
    const titles = new Query(byGroup, (posts: readonly Post[]) => {
      runs++;
      return posts.map(post => post.title);
    });
    store.dispatch(cache.set(byGroup, { group: 'a' }, [{ id: '1', title: 'one' }]));
    store.dispatch(cache.set(byGroup, { group: 'b' }, [{ id: '2', title: 'two' }]));
    const list = cache.selectQuery(store.getState(), byGroup, { group: 'a' });
    const result = cache.selectQuery(store.getState(), titles, { group: 'a' });
    expect(runs).toBe(1);

    store.dispatch(cache.set(Post, { id: '2', title: 'two, edited' }));
    expect(cache.selectQuery(store.getState(), byGroup, { group: 'a' })).toBe(list);
    expect(cache.selectQuery(store.getState(), titles, { group: 'a' })).toBe(result);
    expect(runs).toBe(1);

    store.dispatch(cache.set(Post, { id: '1', title: 'one, edited' }));
    expect(cache.selectQuery(store.getState(), titles, { group: 'a' })).toEqual(['one, edited']);
    expect(runs).toBe(2);
  });

  test('a row read while missing is read again once it is written', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Post, { id: '1', title: 'one' }));
    expect(cache.selectQuery(store.getState(), Post, { id: '2' })).toBeUndefined();
    store.dispatch(cache.set(Post, { id: '3', title: 'three' }));
    expect(cache.selectQuery(store.getState(), Post, { id: '2' })).toBeUndefined();
    store.dispatch(cache.set(Post, { id: '2', title: 'two' }));
    expect(cache.selectQuery(store.getState(), Post, { id: '2' })?.title).toBe('two');
  });

  test('a deleted row is read as deleted, and a row nested two levels down is followed', () => {
    const { cache, store } = makeStore();
    store.dispatch(
      cache.set(
        [Post],
        [
          { id: '1', title: 'one', author: { id: 'u1', name: 'Ann' } },
          { id: '2', title: 'two', author: { id: 'u2', name: 'Bo' } },
        ],
      ),
    );
    const one = cache.selectQuery(store.getState(), Post, { id: '1' })!;
    store.dispatch(cache.set(User, { id: 'u2', name: 'Bob' }));
    expect(cache.selectQuery(store.getState(), Post, { id: '1' })).toBe(one);
    store.dispatch(cache.set(User, { id: 'u1', name: 'Anna' }));
    expect(cache.selectQuery(store.getState(), Post, { id: '1' })!.author.name).toBe('Anna');
    store.dispatch(cache.set(new Invalidate(Post), { id: '1' }));
    expect(cache.selectQuery(store.getState(), Post, { id: '1' })).toBeUndefined();
  });

  test('All sees every added row, even though it read none of them by key', () => {
    const { cache, store } = makeStore();
    const all = new All(Post);
    store.dispatch(cache.set(Post, { id: '1', title: 'one' }));
    expect(cache.selectQuery(store.getState(), all)).toHaveLength(1);
    store.dispatch(cache.set(Post, { id: '2', title: 'two' }));
    expect(cache.selectQuery(store.getState(), all)!.map(post => post.id)).toEqual(['1', '2']);
  });

  test('many writes elsewhere between two reads (a long chain of changes) are followed, or the read is walked again', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Post, { id: 'read', title: 'kept' }));
    const read = cache.selectQuery(store.getState(), Post, { id: 'read' });
    for (let i = 0; i < 100; i++) store.dispatch(cache.set(Post, { id: `other${i}`, title: String(i) }));
    expect(cache.selectQuery(store.getState(), Post, { id: 'read' })).toBe(read);
    for (let i = 0; i < 100; i++) store.dispatch(cache.set(Post, { id: `other${i}`, title: `again ${i}` }));
    store.dispatch(cache.set(Post, { id: 'read', title: 'changed' }));
    expect(cache.selectQuery(store.getState(), Post, { id: 'read' })!.title).toBe('changed');
  });

  test('a state the reducer did not make (a hydrated copy) is read correctly', () => {
    const cache = createCache();
    const hydrate = { type: 'hydrate' } as const;
    let saved: unknown;
    const store = configureStore({
      reducer: {
        cache: (state: ReturnType<typeof cache.reducer> | undefined, action: { type: string }) =>
          action.type === 'hydrate'
            ? (JSON.parse(JSON.stringify(saved)) as ReturnType<typeof cache.reducer>)
            : cache.reducer(state, action),
      },
      middleware: getDefault => getDefault().concat(cache.middleware),
    });
    store.dispatch(cache.set(Post, { id: '1', title: 'one' }));
    const first = cache.selectQuery(store.getState(), Post, { id: '1' });
    saved = {
      ...store.getState().cache,
      entities: { ...store.getState().cache.entities, Post: { 1: { id: '1', title: 'hydrated' } } },
    };
    store.dispatch(hydrate);
    expect(cache.selectQuery(store.getState(), Post, { id: '1' })).not.toBe(first);
    expect(cache.selectQuery(store.getState(), Post, { id: '1' })!.title).toBe('hydrated');
  });
});

describe('a read walked again after a change', () => {
  test('trusts what the state it was valid in says only for the tables that read saw', () => {
    // The list was read empty (it saw no Post or User row); Post 1 was read alone in the same state.
    // One write then renames its author and pushes it into the list: walking the list again meets
    // Post 1 for the first time, and a User row it depends on changed in a table the list never saw.
    const posts = new Collection([Post], { argsKey: () => ({}) });
    const { cache, store } = makeStore();
    store.dispatch(cache.set(posts, {}, []));
    store.dispatch(cache.set(Post, {}, { id: '1', title: 'one', author: { id: 'u1', name: 'Ann' } }));
    expect(cache.selectQuery(store.getState(), posts, {})).toEqual([]);
    const alone = cache.selectQuery(store.getState(), Post, { id: '1' })!;
    expect(alone.author.name).toBe('Ann');
    store.dispatch(cache.set(posts.push, {}, { id: '1', title: 'one', author: { id: 'u1', name: 'Bea' } }));
    const list = cache.selectQuery(store.getState(), posts, {})!;
    expect(list.map(post => post.author.name)).toEqual(['Bea']);
    expect(cache.selectQuery(store.getState(), Post, { id: '1' })).toBe(list[0]);
  });

  test('looks up the rows at keys written since, and reuses the rest without looking them up', () => {
    const posts = new Collection([Post], { argsKey: () => ({}) });
    const { cache, store } = makeStore();
    store.dispatch(
      cache.set(posts, {}, [
        { id: '1', title: 'one', author: { id: 'u1', name: 'Ann' } },
        { id: '2', title: 'two', author: { id: 'u2', name: 'Bob' } },
      ]),
    );
    const before = cache.selectQuery(store.getState(), posts, {})!;
    store.dispatch(cache.set(User, {}, { id: 'u2', name: 'Bea' }));
    const after = cache.selectQuery(store.getState(), posts, {})!;
    expect(after[0]).toBe(before[0]);
    expect(after[1]!.author.name).toBe('Bea');
    store.dispatch(cache.set(Post, {}, { id: '1', title: 'uno' }));
    const again = cache.selectQuery(store.getState(), posts, {})!;
    expect(again.map(post => [post.title, post.author.name])).toEqual([
      ['uno', 'Ann'],
      ['two', 'Bea'],
    ]);
    expect(again[1]).toBe(after[1]);
  });
});

/**
 * Collection filters (docs/Collection.md, "Filters and merges"): the `createCollectionFilter`
 * option (and an overriding method), `addWith(merge, filter?)` and `moveWith(merge, filter?)`.
 * Which stored lists a create, removal or move reaches, where the items land, that a guessed
 * create reaches the lists its answer does, and that bad filters and merges leave the store as it was.
 */
import { Collection, Entity, ErrorCode, resource, Values, type OptimisticSnapshot } from '../../src/index';
import { makeStore } from '../fixtures/store';
import { catchError, endpoint, expectRejected } from '../fixtures/writes';

class Todo extends Entity {
  id = '';
  userId = '';
  title = '';
  static override key = 'Todo';
}

type Store = ReturnType<typeof makeStore>['store'];
type Cache = ReturnType<typeof makeStore>['cache'];

/** Lists args whose values are compared as strings; keys starting `ignored` never filter. */
const ignoringFilter =
  (...args: any[]) =>
  (collectionKey: Record<string, string>) =>
    Object.entries(collectionKey).every(
      ([key, value]) => key.startsWith('ignored') || `${args[0]?.[key]}` === value || `${args[1]?.[key]}` === value,
    );

function todo(id: string, userId = '1') {
  return { id, userId, title: `Todo ${id}` };
}

/** The stored refs of the list `collection` keeps for `params`. */
function row(store: Store, collection: Collection<any>, params: object): unknown {
  return (store.getState().cache.entities[collection.key] as Record<string, unknown> | undefined)?.[
    collection.pk(params)
  ];
}

function seed(store: Store, cache: Cache, collection: Collection<any>, lists: Array<[object, unknown]>): void {
  for (const [params, items] of lists) store.dispatch(cache.set(collection, params, items));
}

/** data-client's fixture: lists for user 1 (one with an ignored arg), user 2, and every todo. */
function userLists(collection: Collection<any>) {
  const { cache, store } = makeStore();
  seed(store, cache, collection, [
    [{ userId: '1' }, [todo('10')]],
    [{ userId: '1', ignoredMe: '5' }, [todo('10')]],
    [{ userId: '2' }, [todo('20', '2')]],
    [{}, [todo('10'), todo('20', '2')]],
  ]);
  store.dispatch(cache.set(collection.push, { userId: '1' }, todo('30')));
  return { cache, store };
}

function expectIgnoredKeysSkipped(store: Store, collection: Collection<any>) {
  expect(row(store, collection, { userId: '1' })).toEqual(['10', '30']);
  expect(row(store, collection, { userId: '1', ignoredMe: '5' })).toEqual(['10', '30']);
  expect(row(store, collection, {})).toEqual(['10', '20', '30']);
  expect(row(store, collection, { userId: '2' })).toEqual(['20']);
}

describe('createCollectionFilter', () => {
  test('the option replaces the default matching: a key it ignores no longer blocks a create', () => {
    const todos = new Collection([Todo], { createCollectionFilter: ignoringFilter });
    const { store } = userLists(todos);
    expectIgnoredKeysSkipped(store, todos);
    // The default matching filters by ignoredMe.
    const plain = new Collection([Todo]);
    const { store: plainStore } = userLists(plain);
    expect(row(plainStore, plain, { userId: '1', ignoredMe: '5' })).toEqual(['10']);
  });

  test('a subclass may override the method instead', () => {
    class IgnoringCollection extends Collection<[typeof Todo]> {
      override createCollectionFilter(...args: any[]) {
        return ignoringFilter(...args);
      }
    }
    const todos = new IgnoringCollection([Todo]);
    const { store } = userLists(todos);
    expectIgnoredKeysSkipped(store, todos);
  });

  test("a filter by the body's userId only: the params' userId no longer reaches a list", () => {
    const byBody = new Collection([Todo], {
      createCollectionFilter: (_params: object, body?: { userId?: unknown }) => collectionKey =>
        Object.keys(collectionKey).every(
          key => key === 'orderBy' || collectionKey[key] === String(body?.[key as 'userId']),
        ),
    });
    const create = endpoint('POST /todos', byBody.push);
    const { cache, store } = makeStore();
    seed(store, cache, byBody, [
      [{ userId: '1' }, [todo('10')]],
      [{ userId: '2' }, [todo('20', '2')]],
      [{ userId: '2', orderBy: 'title' }, [todo('20', '2')]],
      [{}, []],
    ]);
    store.dispatch(cache.setResponse(create, { userId: '1' }, { userId: '2' }, todo('30', '2')));
    expect(row(store, byBody, { userId: '1' })).toEqual(['10']);
    expect(row(store, byBody, { userId: '2' })).toEqual(['20', '30']);
    expect(row(store, byBody, { userId: '2', orderBy: 'title' })).toEqual(['20', '30']);
    expect(row(store, byBody, {})).toEqual(['30']);
  });

  test('the filter sees the args as sent, and `this` is the collection', () => {
    const seen: unknown[][] = [];
    let self: unknown;
    const todos = new Collection([Todo], {
      createCollectionFilter(this: unknown, ...args: unknown[]) {
        seen.push(args);
        self = this;
        return () => true;
      },
    });
    const { cache, store } = makeStore();
    seed(store, cache, todos, [[{ userId: '1' }, []]]);
    store.dispatch(cache.setResponse(endpoint('POST', todos.push), { userId: '1' }, { title: 'x' }, todo('1')));
    expect(seen).toEqual([[{ userId: '1' }, { title: 'x' }]]);
    expect(self).toBe(todos);
  });

  test('removals go through it; a removal without params still reaches every list', () => {
    const todos = new Collection([Todo], { createCollectionFilter: ignoringFilter });
    const { cache, store } = makeStore();
    seed(store, cache, todos, [
      [{ userId: '1', ignoredMe: '5' }, [todo('10'), todo('11')]],
      [{ userId: '2' }, [todo('10'), todo('11')]],
    ]);
    store.dispatch(cache.set(todos.remove, { userId: '1' }, '10'));
    expect(row(store, todos, { userId: '1', ignoredMe: '5' })).toEqual(['11']);
    expect(row(store, todos, { userId: '2' })).toEqual(['10', '11']);
    store.dispatch(cache.set(todos.remove, {}, '11'));
    expect(row(store, todos, { userId: '1', ignoredMe: '5' })).toEqual([]);
    expect(row(store, todos, { userId: '2' })).toEqual(['10']);
  });

  test('resource({ collection: { createCollectionFilter } }) gives it to getList', () => {
    const TodoResource = resource({
      path: '/todos/:id',
      schema: Todo,
      collection: { createCollectionFilter: ignoringFilter },
    });
    const { store } = userLists(TodoResource.getList.schema);
    expectIgnoredKeysSkipped(store, TodoResource.getList.schema);
  });
});

describe('addWith', () => {
  const byId = (existing: string[], incoming: string[]) => [...existing, ...incoming].sort();

  test('places created items with its merge, in every list the default filter matches', () => {
    const todos = new Collection([Todo]);
    const sorted = todos.addWith(byId);
    const { cache, store } = makeStore();
    seed(store, cache, todos, [
      [{ userId: '1' }, [todo('1'), todo('3')]],
      [{ userId: '2' }, [todo('4', '2')]],
    ]);
    store.dispatch(cache.set(sorted, { userId: '1' }, todo('2')));
    expect(row(store, todos, { userId: '1' })).toEqual(['1', '2', '3']);
    expect(row(store, todos, { userId: '2' })).toEqual(['4']);
    expect(cache.selectQuery(store.getState(), Todo, '2')).toBeInstanceOf(Todo);
  });

  test('its own filter decides the lists; the merge gets only items a list does not hold yet', () => {
    const todos = new Collection([Todo]);
    const merges: unknown[] = [];
    const everywhere = todos.addWith(
      (existing: string[], incoming: string[]) => {
        merges.push(incoming);
        return [...incoming, ...existing];
      },
      () => () => true,
    );
    const { cache, store } = makeStore();
    seed(store, cache, todos, [
      [{ userId: '1' }, [todo('1')]],
      [{ userId: '2' }, [todo('2', '2')]],
    ]);
    store.dispatch(cache.set(everywhere, { userId: '9' }, [todo('1'), todo('5')]));
    expect(row(store, todos, { userId: '1' })).toEqual(['5', '1']);
    expect(row(store, todos, { userId: '2' })).toEqual(['1', '5', '2']);
    expect(merges).toEqual([['5'], ['1', '5']]);
  });

  test('on a Values collection it merges maps', () => {
    const byKey = new Collection(new Values(Todo));
    const keepFirst = byKey.addWith((existing: object, incoming: object) => ({ ...incoming, ...existing }));
    const { cache, store } = makeStore();
    seed(store, cache, byKey, [[{}, { a: todo('1') }]]);
    store.dispatch(cache.set(keepFirst, {}, { a: todo('2'), b: todo('3') }));
    expect(row(store, byKey, {})).toEqual({ a: '1', b: '3' });
  });
});

describe('moveWith', () => {
  const prepend = (existing: unknown[], incoming: unknown[]) => [...incoming, ...existing];

  test('a list: the moved item leaves its old lists and is prepended to its new ones', () => {
    const todos = new Collection([Todo], { argsKey: ({ userId }: { userId?: string }) => ({ userId }) });
    const moveToFront = endpoint('PATCH /todos/:id', todos.moveWith(prepend));
    const { cache, store } = makeStore();
    seed(store, cache, todos, [
      [{ userId: '1' }, [todo('10')]],
      [{ userId: '2' }, [todo('20', '2')]],
    ]);
    store.dispatch(cache.setResponse(moveToFront, { id: '10' }, { userId: '2' }, todo('10', '2')));
    expect(row(store, todos, { userId: '1' })).toEqual([]);
    expect(row(store, todos, { userId: '2' })).toEqual(['10', '20']);
  });

  test('a map: the merge gets { pk: ref }', () => {
    const byUser = new Collection(new Values(Todo));
    const merges: unknown[] = [];
    const move = endpoint(
      'PATCH /todos/:id',
      byUser.moveWith((existing: object, incoming: object) => {
        merges.push(incoming);
        return { ...incoming, ...existing };
      }),
    );
    const { cache, store } = makeStore();
    seed(store, cache, byUser, [
      [{ userId: '1' }, { '10': todo('10') }],
      [{ userId: '2' }, { '20': todo('20', '2') }],
    ]);
    store.dispatch(cache.setResponse(move, { id: '10' }, { userId: '2' }, todo('10', '2')));
    expect(row(store, byUser, { userId: '1' })).toEqual({});
    expect(row(store, byUser, { userId: '2' })).toEqual({ '10': '10', '20': '20' });
    expect(merges).toEqual([{ '10': '10' }]);
  });

  test('its own filter decides which lists the item leaves and joins', () => {
    const todos = new Collection([Todo]);
    // Only lists keyed by userId move the item; the { group } lists keep it whatever it says.
    const byUserOnly = todos.moveWith(
      (existing: unknown[], incoming: unknown[]) => [...existing, ...incoming],
      (params: Record<string, unknown>) => collectionKey =>
        'userId' in collectionKey && collectionKey.userId === String(params.userId),
    );
    const move = endpoint('PATCH /todos/:id', byUserOnly);
    const { cache, store } = makeStore();
    seed(store, cache, todos, [
      [{ userId: '1' }, [todo('10')]],
      [{ userId: '2' }, []],
      [{ group: 'a' }, [todo('10')]],
      [{ group: 'b' }, []],
    ]);
    store.dispatch(cache.setResponse(move, { id: '10' }, { userId: '2', group: 'b' }, todo('10', '2')));
    expect(row(store, todos, { userId: '1' })).toEqual([]);
    expect(row(store, todos, { userId: '2' })).toEqual(['10']);
    expect(row(store, todos, { group: 'a' })).toEqual(['10']);
    expect(row(store, todos, { group: 'b' })).toEqual([]);
  });
});

test('a guessed create reaches exactly the lists its answer reaches, under a custom filter', async () => {
  const todos = new Collection([Todo], { createCollectionFilter: ignoringFilter });
  let answer: ((value: unknown) => void) | undefined;
  const create = {
    key: (...args: unknown[]) => `POST /todos ${JSON.stringify(args)}`,
    schema: todos.addWith((existing: string[], incoming: string[]) => [...incoming, ...existing]),
    sideEffect: true,
    fetch: () => new Promise(resolve => (answer = resolve)),
    getOptimisticResponse: (_snap: OptimisticSnapshot, _params: unknown, body: unknown) => body,
  };
  const { cache, store } = makeStore();
  seed(store, cache, todos, [
    [{ userId: '1' }, [todo('10')]],
    [{ userId: '1', ignoredMe: '5' }, [todo('10')]],
    [{ userId: '2' }, [todo('20', '2')]],
    [{}, [todo('10'), todo('20', '2')]],
  ]);
  const lists = [{ userId: '1' }, { userId: '1', ignoredMe: '5' }, { userId: '2' }, {}];
  const lengths = () => lists.map(params => (row(store, todos, params) as unknown[]).length);
  const created = store.dispatch(cache.fetch(create, { userId: '1' }, { userId: '1', title: 'New' }));
  // The guess has no pk yet: a placeholder row, first in each list the filter takes.
  expect(lengths()).toEqual([2, 2, 1, 3]);
  expect(lists.map(params => (row(store, todos, params) as string[])[0])).toEqual([
    expect.stringMatching(/^optimistic-|^placeholder:/),
    expect.stringMatching(/^optimistic-|^placeholder:/),
    '20',
    expect.stringMatching(/^optimistic-|^placeholder:/),
  ]);
  // The request is sent in a microtask after the guess is written.
  while (!answer) await new Promise(resolve => setTimeout(resolve, 0));
  answer({ id: '30', userId: '1', title: 'New' });
  await created;
  expect(lists.map(params => row(store, todos, params))).toEqual([
    ['30', '10'],
    ['30', '10'],
    ['20'],
    ['30', '10', '20'],
  ]);
});

describe('bad filters and merges', () => {
  test('a createCollectionFilter option that is not a function: INVALID_SCHEMA where the Collection is made', () => {
    const error = catchError(() => new Collection([Todo], { createCollectionFilter: 'userId' as never }));
    expect(error.code).toBe(ErrorCode.INVALID_SCHEMA);
    expect(error.message).toMatch(/createCollectionFilter must be a function/);
  });

  test('addWith and moveWith without a merge function, or with a filter that is not one: INVALID_SCHEMA', () => {
    const todos = new Collection([Todo]);
    for (const make of [
      () => todos.addWith('push' as never),
      () => todos.moveWith(undefined as never),
      () => todos.addWith(x => x, { userId: '1' } as never),
      () => todos.moveWith(x => x, 'userId' as never),
    ]) {
      const error = catchError(make);
      expect(error.code).toBe(ErrorCode.INVALID_SCHEMA);
      expect(error.message).toMatch(/(merge|createCollectionFilter) must be a function/);
    }
  });

  test('a filter maker that returns no function, or a merge that returns no list: INVALID_SCHEMA, store unchanged', () => {
    const todos = new Collection([Todo], { createCollectionFilter: (() => 'all') as never });
    const plain = new Collection([Todo]);
    const { cache, store } = makeStore();
    seed(store, cache, plain, [
      [{ userId: '1' }, [todo('1')]],
      [{ userId: '2' }, []],
    ]);
    const filterError = expectRejected(
      store,
      () => store.dispatch(cache.set(todos.push, { userId: '1' }, todo('2'))),
      'INVALID_SCHEMA',
    );
    expect(filterError.message).toMatch(/must return a test of a list's key, but returned string "all"/);
    const broken = plain.addWith(() => undefined);
    const mergeError = expectRejected(
      store,
      () => store.dispatch(cache.set(broken, { userId: '1' }, todo('2'))),
      'INVALID_SCHEMA',
    );
    expect(mergeError.message).toMatch(/must return the new list of refs, but returned undefined/);
    const toMap = plain.moveWith(() => ({}));
    expectRejected(store, () => store.dispatch(cache.set(toMap, {}, todo('1', '2'))), 'INVALID_SCHEMA');
  });
});

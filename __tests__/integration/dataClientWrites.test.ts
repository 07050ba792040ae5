/**
 * The data-client write behaviors its users rely on (issue 22), and the intended differences that
 * a data-client user meets on write: each test is named after the behavior.
 */
import {
  Collection,
  Entity,
  ErrorCode,
  Invalidate,
  LensCacheError,
  Query,
  RestEndpoint,
  Scalar,
  Union,
  normalize,
  type LensArgs,
} from '../../src/index';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint } from '../fixtures/writes';

afterEach(() => jest.restoreAllMocks());

class User extends Entity {
  id = '';
  name = '';
  static override key = 'User';
}

test('set with an updater on a value that is not cached writes nothing and does not call the updater', () => {
  class Counter extends Entity {
    id = '';
    n = 0;
    static override key = 'Counter';
  }
  const { cache, store } = makeStore();
  store.dispatch(cache.set(User, { id: 'u1', name: 'Ann' }));
  const before = store.getState();
  const updater = jest.fn((prev: Counter) => ({ ...prev, n: prev.n + 1 }));
  expect(() => store.dispatch(cache.set(Counter, 'c1', updater))).not.toThrow();
  expect(updater).not.toHaveBeenCalled();
  expect(store.getState()).toBe(before);
  store.dispatch(cache.set(Counter, { id: 'c1', n: 1 }));
  store.dispatch(cache.set(Counter, 'c1', updater));
  expect(updater).toHaveBeenCalledTimes(1);
  expect(cache.selectQuery(store.getState(), Counter, 'c1')?.n).toBe(2);
});

test('a single object pushed, unshifted, removed or moved resolves to that item; a list to a list', () => {
  class Post extends Entity {
    id = '';
    group = '';
    static override key = 'Post';
  }
  const posts = new Collection([Post], { argsKey: ({ group }: { group?: string }) => ({ group }) });
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(endpoint('GET /posts', posts), { group: 'a' }, [{ id: '1', group: 'a' }]));
  store.dispatch(cache.setResponse(endpoint('GET /posts', posts), { group: 'b' }, []));
  const push = endpoint('POST', posts.push);
  const unshift = endpoint('POST first', posts.unshift);
  const remove = endpoint('DELETE', posts.remove);
  const move = endpoint('PATCH', posts.move);
  store.dispatch(cache.setResponse(push, { group: 'a' }, { id: '2', group: 'a' }));
  store.dispatch(cache.setResponse(unshift, { group: 'a' }, { id: '3', group: 'a' }));
  store.dispatch(cache.setResponse(push, { group: 'a' }, 'list', [{ id: '4', group: 'a' }]));
  store.dispatch(cache.setResponse(move, { group: 'a' }, { group: 'b' }, { id: '2', group: 'b' }));
  store.dispatch(cache.setResponse(remove, { group: 'a' }, { id: '3' }));
  const state = store.getState();
  const single = (ep: { key: (...args: unknown[]) => string; schema: unknown }, ...args: unknown[]) =>
    cache.selectResponse(state, ep as never, ...(args as [never])).data as Post;
  expect(single(push, { group: 'a' })).toBeInstanceOf(Post);
  expect(single(push, { group: 'a' }).id).toBe('2');
  expect(single(unshift, { group: 'a' }).id).toBe('3');
  expect(single(move, { group: 'a' }, { group: 'b' }).id).toBe('2');
  expect(single(remove, { group: 'a' }).id).toBe('3');
  const list = single(push, { group: 'a' }, 'list') as unknown as Post[];
  expect(Array.isArray(list)).toBe(true);
  expect(list.map(post => post.id)).toEqual(['4']);
  expect(single(push, { group: 'a' })).toBe(single(push, { group: 'a' }));
});

test('an entity input may be an array when process turns it into an object', () => {
  class Level extends Entity {
    price = 0;
    size = 0;
    static override key = 'Level';
    override pk() {
      return String(this.price);
    }
    static override process(input: object) {
      const [price, size] = input as [number, number];
      return { price, size };
    }
  }
  const book = endpoint('GET /book', { bids: [Level] });
  const { cache, store } = makeStore();
  store.dispatch(
    cache.setResponse(book, {
      bids: [
        [100, 5],
        [99, 2],
      ],
    }),
  );
  expect(store.getState().cache.entities.Level).toEqual({ 100: { price: 100, size: 5 }, 99: { price: 99, size: 2 } });
  const read = cache.selectResponse(store.getState(), book).data as { bids: Level[] };
  expect(read.bids.map(level => level.size)).toEqual([5, 2]);
  // The check still applies after process: an array that stays an array is refused.
  const before = store.getState();
  const error = catchError(() => store.dispatch(cache.set(User, [['u1']] as never)));
  expect(error.code).toBe(ErrorCode.UNEXPECTED_INPUT);
  expect(store.getState()).toBe(before);
});

test('at the top level of a response, pk() and process() receive the input itself as parent', () => {
  const parents: unknown[] = [];
  class Profile extends Entity {
    bio = '';
    static override key = 'Profile';
    static override pk(value: object, parent?: unknown) {
      return (parent as { user: { id: string } }).user.id;
    }
    static override process(input: object, parent: unknown) {
      parents.push(parent);
      return { ...input };
    }
  }
  const response = { bio: 'hi', user: { id: 'u7' } };
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(endpoint('GET /me', Profile), response));
  expect(parents).toEqual([response]);
  expect(parents[0]).toBe(response);
  expect(Object.keys(store.getState().cache.entities.Profile!)).toEqual(['u7']);
});

test('an unknown type under Invalidate of a Union is kept raw with a development warning', () => {
  class Kitten extends Entity {
    id = '';
    static override key = 'Kitten';
  }
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const pets = new Union({ cats: Kitten }, 'type');
  const deletePet = endpoint('DELETE /pet', new Invalidate(pets));
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Kitten, { id: '1' }));
  store.dispatch(cache.setResponse(deletePet, { id: '1', type: 'parrot' }));
  const state = store.getState().cache;
  expect(state.meta[deletePet.key()]?.error).toBeUndefined();
  expect(state.endpoints[deletePet.key()]).toEqual({ id: '1', type: 'parrot' });
  expect(state.entities.Kitten!['1']).toEqual({ id: '1' });
  expect(warn.mock.calls.some(([message]) => /Invalidate.*parrot/.test(String(message)))).toBe(true);
  store.dispatch(cache.setResponse(deletePet, { id: '1', type: 'cats' }));
  expect(store.getState().cache.entities.Kitten!['1']).toBeNull();
});

test('a Collection subclass may override nonFilterArgumentKeys as a method', () => {
  class Todo extends Entity {
    id = '';
    static override key = 'Todo';
  }
  class SortedCollection<S extends [typeof Todo]> extends Collection<S> {
    override nonFilterArgumentKeys(key: string) {
      return key === 'sortBy';
    }
  }
  const todos = new SortedCollection([Todo] as [typeof Todo]);
  const { cache, store } = makeStore();
  store.dispatch(cache.set(todos, { userId: '1', sortBy: 'date' }, [{ id: 'a' }]));
  store.dispatch(cache.set(todos.push, { userId: '1' }, { id: 'b' }));
  const read = cache.selectQuery(store.getState(), todos, { userId: '1', sortBy: 'date' }) as Todo[];
  expect(read.map(todo => todo.id)).toEqual(['a', 'b']);
});

test('an Entity without a usable key is a clear setup error naming the fix', () => {
  const anonymous = [class extends Entity {}][0]!;
  const { cache, store } = makeStore();
  const before = store.getState();
  const error = catchError(() => store.dispatch(cache.set(anonymous, { id: '1' })));
  expect(error).toBeInstanceOf(LensCacheError);
  expect(error.code).toBe(ErrorCode.ENTITY_KEY_REQUIRED);
  expect(error.message).toContain('static key');
  // A name a minifier would give.
  class Ie extends Entity {
    id = '';
  }
  expect(catchError(() => store.dispatch(cache.set(Ie, { id: '1' }))).code).toBe(ErrorCode.ENTITY_KEY_REQUIRED);
  expect(catchError(() => new Collection([Ie])).code).toBe(ErrorCode.ENTITY_KEY_REQUIRED);
  class Empty extends Entity {
    id = '';
    static override key = '';
  }
  expect(
    catchError(() =>
      normalize(Empty, { id: '1' }, [], before.cache, { fetchedAt: 0, date: 0, expiresAt: 0 }, { maxEntityDepth: 64 }),
    ).code,
  ).toBe(ErrorCode.ENTITY_KEY_REQUIRED);
  expect(snapshot(store.getState())).toEqual(snapshot(before));
  expect(store.getState()).toBe(before);
  // An explicit key is always accepted, whatever the class name.
  class Ab extends Entity {
    id = '';
    static override key = 'Ab';
  }
  store.dispatch(cache.set(Ab, { id: '1' }));
  expect(Object.keys(store.getState().cache.entities)).toEqual(['Ab']);
});

test('new Scalar({ key }).key is the table name Scalar(<key>)', () => {
  class Fund extends Entity {
    id = '';
    static override key = 'Fund';
  }
  const scalar = new Scalar({
    lens: (args: LensArgs<{ portfolio?: string }>) => args[0]?.portfolio,
    key: 'x',
    entity: Fund,
  });
  expect(scalar.key).toBe('Scalar(x)');
  const { cache, store } = makeStore();
  store.dispatch(cache.set(new Collection([scalar]), { portfolio: 'A' }, [{ id: '1', pct: 0.5 }]));
  expect(Object.keys(store.getState().cache.entities).sort()).toEqual([scalar.key, `[${scalar.key}]`].sort());
});

describe('intended differences', () => {
  test('rows are plain data: a merge returning fromJS(...) is refused and the store is unchanged', () => {
    class Note extends Entity {
      id = '';
      text = '';
      static override key = 'Note';
      static override merge(existing: object, incoming: object) {
        return Note.fromJS({ ...existing, ...incoming });
      }
    }
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Note, { id: '1', text: 'a' }));
    const before = store.getState();
    const error = catchError(() => store.dispatch(cache.set(Note, { id: '1', text: 'b' })));
    expect(error.code).toBe(ErrorCode.UNEXPECTED_INPUT);
    expect(error.message).toContain('Note.merge()');
    expect(store.getState()).toBe(before);
    expect(Object.getPrototypeOf(before.cache.entities.Note!['1'])).toBe(Object.prototype);
  });
});

test('.push on an endpoint whose schema is a Query over a Collection works', () => {
  class Todo extends Entity {
    id = '';
    title = '';
    static override key = 'Todo';
  }
  const byTitle = new Query(new Collection([Todo]), (todos: Todo[]) =>
    [...todos].sort((a, b) => a.title.localeCompare(b.title)),
  );
  const getTodos = new RestEndpoint({ path: '/:user/todos', schema: byTitle, paginationField: 'cursor' });
  const { cache, store } = makeStore();
  store.dispatch(
    cache.setResponse(getTodos, { user: 'ann' }, [
      { id: '1', title: 'b' },
      { id: '2', title: 'd' },
    ]),
  );
  // The op is the Collection's: it answers with the item, and reaches the list the Query reads.
  expect(getTodos.push.method).toBe('POST');
  expect(getTodos.push.url({ user: 'ann' })).toBe('/ann/todos');
  store.dispatch(cache.setResponse(getTodos.push, { user: 'ann' }, { title: 'a' }, { id: '3', title: 'a' }));
  const pushed = cache.selectResponse(store.getState(), getTodos.push, { user: 'ann' }, { title: 'a' }).data as Todo;
  expect(pushed).toBeInstanceOf(Todo);
  expect(pushed?.id).toBe('3');
  const read = () => cache.selectResponse(store.getState(), getTodos, { user: 'ann' }).data!.map(todo => todo.title);
  expect(read()).toEqual(['a', 'b', 'd']);
  // A page of the list appends to it and reads through the same Query.
  store.dispatch(cache.setResponse(getTodos.getPage, { user: 'ann', cursor: '2' }, [{ id: '4', title: 'c' }]));
  expect(read()).toEqual(['a', 'b', 'c', 'd']);
  expect(getTodos.getPage.schema).toBeInstanceOf(Query);
  expect(
    cache.selectResponse(store.getState(), getTodos.getPage, { user: 'ann', cursor: '2' }).data?.map(t => t.id),
  ).toEqual(['4']);
});

test("a pushed item with tags: ['a'] reaches the list stored for { tags: 'a' }", () => {
  class Article extends Entity {
    id = '';
    tags: string[] = [];
    static override key = 'TaggedArticle';
  }
  const articles = new Collection([Article]);
  const { cache, store } = makeStore();
  store.dispatch(cache.set(articles, { tags: 'a' }, [{ id: '1', tags: ['a'] }]));
  store.dispatch(cache.set(articles, { tags: 'a,b' }, []));
  store.dispatch(cache.set(articles, { tags: 'b' }, []));
  store.dispatch(cache.set(articles, { tags: ['a'] }, []));
  // The body of a create (args[1]) is one of the sources its lists are matched with.
  const push = endpoint('POST /articles', articles.push);
  store.dispatch(cache.setResponse(push, {}, { tags: ['a'] }, { id: '2', tags: ['a'] }));
  store.dispatch(cache.setResponse(push, {}, { tags: ['a', 'b'] }, { id: '3', tags: ['a', 'b'] }));
  const ids = (tags: unknown) =>
    (cache.selectQuery(store.getState(), articles, { tags }) as Article[]).map(article => article.id);
  expect(ids('a')).toEqual(['1', '2']);
  expect(ids('a,b')).toEqual(['3']);
  expect(ids('b')).toEqual([]);
  // A list stored for the list itself still matches it exactly.
  expect(ids(['a'])).toEqual(['2']);
  // The params are a source too, and a move follows the same rule.
  store.dispatch(
    cache.setResponse(
      endpoint('PATCH /articles', articles.move),
      { tags: ['a'] },
      { tags: ['b'] },
      {
        id: '2',
        tags: ['b'],
      },
    ),
  );
  expect(ids('a')).toEqual(['1']);
  expect(ids('b')).toEqual(['2']);
});

test('process returning undefined for a tuple-shaped nested input invalidates that entity instead of failing the write', () => {
  // data-client's order book: [price, 0] means "this level is gone".
  class PriceLevel extends Entity {
    price = 0;
    amount = 0;
    static override key = 'PriceLevel';
    override pk() {
      return `${this.price}`;
    }
    static override process(input: object) {
      const [price, amount] = input as [number, number];
      return amount === 0 ? undefined : { price, amount };
    }
  }
  class OrderBook extends Entity {
    id = '';
    bids: PriceLevel[] = [];
    static override key = 'OrderBook';
    static override schema = { bids: [PriceLevel] };
  }
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const { cache, store } = makeStore();
  store.dispatch(cache.set(PriceLevel, [200, 3] as never));
  store.dispatch(
    cache.set(OrderBook, {
      id: 'ob1',
      bids: [
        [100, 5],
        [200, 0],
        [300, 10],
      ],
    } as never),
  );
  const entities = store.getState().cache.entities;
  expect(entities.PriceLevel).toEqual({
    100: { price: 100, amount: 5 },
    200: { price: 200, amount: 3 },
    300: { price: 300, amount: 10 },
  });
  expect(entities.OrderBook!.ob1).toEqual({ id: 'ob1', bids: ['100', '300'] });
  // pk() cannot read the tuple, so the level cannot be named: the write says how to name it.
  expect(String(warn.mock.calls[0]![0])).toMatch(/PriceLevel\.pk\(\) read the tuple/);

  // With a pk that reads the tuple too, the level it names is deleted.
  class Level extends PriceLevel {
    static override key = 'Level';
    static override pk(value: object) {
      return Array.isArray(value) ? String(value[0]) : String((value as PriceLevel).price);
    }
  }
  class Book extends Entity {
    id = '';
    bids: Level[] = [];
    static override key = 'Book';
    static override schema = { bids: [Level] };
  }
  store.dispatch(cache.set(Level, [200, 3] as never));
  store.dispatch(
    cache.set(Book, {
      id: 'b1',
      bids: [
        [100, 5],
        [200, 0],
      ],
    } as never),
  );
  expect(store.getState().cache.entities.Level!['200']).toBeNull();
  const book = cache.selectQuery(store.getState(), Book, 'b1');
  expect(book?.bids.map(level => level.price)).toEqual([100]);

  // As the whole response, a deletion that names nothing is still refused, and nothing changes.
  const before = store.getState();
  expect(catchError(() => store.dispatch(cache.set(PriceLevel, [400, 0] as never))).code).toBe(ErrorCode.MISSING_PK);
  expect(store.getState()).toBe(before);
});

test('a development warning for indexes naming a field the entity does not have', () => {
  class Taco extends Entity {
    id = '';
    type = '';
    slug = '';
    nickname?: string;
    static override key = 'Taco';
    static override indexes = ['notfound', 'slug', 'nickname'];
  }
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const { cache, store } = makeStore();
  const tacos = endpoint('GET /tacos', { data: [Taco], alt: Taco });
  store.dispatch(
    cache.setResponse(tacos, {
      data: [
        { id: '1', type: 'foo', nickname: 'f' },
        { id: '2', type: 'bar', nickname: 'b' },
      ],
      alt: { id: '2', type: 'bar2', nickname: 'b' },
    }),
  );
  // The write itself goes on.
  expect(Object.keys(store.getState().cache.entities.Taco!)).toEqual(['1', '2']);
  // Once for the class and field; a declared field (slug) or one the rows hold (nickname) is fine.
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]![0])).toMatch(/Taco\.indexes names "notfound"/);
  expect(cache.selectQuery(store.getState(), Taco, { nickname: 'f' })?.id).toBe('1');
});

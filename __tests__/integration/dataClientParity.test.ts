/**
 * The data-client behaviors its users rely on (issue 22): each test is named after the behavior,
 * written the way a data-client user would write it, and read through the public entry point.
 */
import {
  All,
  Collection,
  Entity,
  ErrorCode,
  Invalidate,
  LensCacheError,
  Scalar,
  Union,
  normalize,
} from '../../src/index';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint } from '../fixtures/writes';

afterEach(() => jest.restoreAllMocks());

class User extends Entity {
  id = '';
  name = '';
  static override key = 'User';
}

class Article extends Entity {
  id = '';
  title = '';
  author = User.fromJS();
  static override key = 'Article';
  static override schema = { author: User };
}

class ArticleSummary extends Entity {
  id = '';
  title = '';
  static override key = 'Article';
}

test('two Entity classes sharing a key share the table, and each read returns the class asked for', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Article, { id: '1', title: 'Hi', author: { id: 'u1', name: 'Ann' } }));
  const state = store.getState();
  const summary = cache.selectQuery(state, ArticleSummary, '1');
  const article = cache.selectQuery(state, Article, '1');
  expect(summary).toBeInstanceOf(ArticleSummary);
  expect(summary).not.toBeInstanceOf(Article);
  expect(article).toBeInstanceOf(Article);
  expect(article?.author).toBeInstanceOf(User);
  expect(article?.author.name).toBe('Ann');
  // Each class's object is memoized for that class: the same object again, never the other's.
  expect(cache.selectQuery(state, Article, '1')).toBe(article);
  expect(cache.selectQuery(state, ArticleSummary, '1')).toBe(summary);
  // Also inside one read: a list of both reads one row twice as two classes.
  const both = cache.selectQuery(state, { a: Article, s: ArticleSummary }, '1') as { a: Article; s: ArticleSummary };
  expect(both.a).toBe(article);
  expect(both.s).toBe(summary);
  expect(store.getState().cache.entities.Article!['1']).toEqual({ id: '1', title: 'Hi', author: 'u1' });
  // An unrelated write keeps both objects; a change to the row re-creates both, each as its class.
  store.dispatch(cache.set(Article, { id: '2', title: 'Other', author: 'u1' }));
  expect(cache.selectQuery(store.getState(), Article, '1')).toBe(article);
  expect(cache.selectQuery(store.getState(), ArticleSummary, '1')).toBe(summary);
  store.dispatch(cache.set(ArticleSummary, { id: '1', title: 'Changed' }));
  const changed = cache.selectQuery(store.getState(), Article, '1');
  expect(changed).not.toBe(article);
  expect(changed).toBeInstanceOf(Article);
  expect(changed?.author).toBe(article?.author);
  expect(cache.selectQuery(store.getState(), ArticleSummary, '1')).toBeInstanceOf(ArticleSummary);
  expect(warn).toHaveBeenCalled();
});

test('Invalidate(E) reads back like E: a stored id reads as the entity, deleted members drop, missing reads undefined', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.set([User], [{ id: 'u1', name: 'Ann' }, { id: 'u2', name: 'Bob' }]));
  const one = endpoint('DELETE /user', new Invalidate(User));
  const many = endpoint('DELETE /users', [new Invalidate(User)]);
  store.dispatch(cache.setResponse(one, 'u1'));
  store.dispatch(cache.setResponse(one, 'x', 'u9'));
  store.dispatch(cache.set(User, { id: 'u1', name: 'Ann again' }));
  store.dispatch(cache.setResponse(many, [{ id: 'u2' }]));
  const state = store.getState();
  const read = cache.selectResponse(state, one).data;
  expect(read).toBeInstanceOf(User);
  expect((read as User).name).toBe('Ann again');
  expect(cache.selectResponse(state, one).data).toBe(read);
  expect(cache.selectResponse(state, one, 'x').data).toBeUndefined();
  // u2 was deleted by that very response: dropped from the array.
  expect(cache.selectResponse(state, many).data).toEqual([]);
});

test('an object schema with an invalid member is invalid as a whole', () => {
  class Cat extends Entity {
    id = '';
    static override key = 'Cat';
  }
  const { cache, store } = makeStore();
  store.dispatch(cache.set(User, { id: 'u1', name: 'Ann' }));
  const before = store.getState();
  expect(cache.selectQuery(before, { results: new All(Cat) })).toBeUndefined();
  expect(cache.selectQuery(before, { results: new All(Cat), user: User }, 'u1')).toBeUndefined();
  expect(cache.selectResponse(before, endpoint('GET /cats', { results: new All(Cat) })).expiryStatus).toBe('invalid');
  store.dispatch(cache.set(Cat, { id: 'c1' }));
  const found = cache.selectQuery(store.getState(), { results: new All(Cat) }) as { results: Cat[] };
  expect(found.results.map(cat => cat.id)).toEqual(['c1']);
});

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
  store.dispatch(cache.setResponse(book, { bids: [[100, 5], [99, 2]] }));
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
  expect(catchError(() => normalize(Empty, { id: '1' }, [], before.cache, { fetchedAt: 0, date: 0, expiresAt: 0 }, { maxEntityDepth: 64 })).code).toBe(
    ErrorCode.ENTITY_KEY_REQUIRED,
  );
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
  const scalar = new Scalar({ lens: args => args[0]?.portfolio, key: 'x', entity: Fund });
  expect(scalar.key).toBe('Scalar(x)');
  const { cache, store } = makeStore();
  store.dispatch(cache.set(new Collection([scalar]), { portfolio: 'A' }, [{ id: '1', pct: 0.5 }]));
  expect(Object.keys(store.getState().cache.entities).sort()).toEqual([scalar.key, `[${scalar.key}]`].sort());
});

test('a development warning when a Union read meets a bare string where a ref object is needed', () => {
  class Dog extends Entity {
    id = '';
    static override key = 'Dog';
  }
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const pets = new Union({ dogs: Dog }, 'type');
  const getPet = endpoint('GET /pet', pets);
  const { cache, store } = makeStore({}, {
    preloadedState: {
      cache: { entities: {}, entitiesMeta: {}, endpoints: { [getPet.key()]: 'rex-7' }, meta: {}, lastReset: 0 },
    },
  });
  expect(cache.selectResponse(store.getState(), getPet).data).toBe('rex-7');
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]![0])).toContain('rex-7');
});

test('a nested object stored where a ref is expected reads as the entity', () => {
  const { cache, store } = makeStore({}, {
    preloadedState: {
      cache: {
        entities: {
          Article: { 1: { id: '1', title: 'Hi', author: { id: 'u1', name: 'Inline Ann' } }, 2: { id: '2', title: 'Yo', author: { id: 'u2' } } },
          User: { u2: { id: 'u2', name: 'Stored Bob' } },
        },
        entitiesMeta: {},
        endpoints: {},
        meta: {},
        lastReset: 0,
      },
    },
  });
  const state = store.getState();
  const one = cache.selectQuery(state, Article, '1');
  expect(one?.author).toBeInstanceOf(User);
  expect(one?.author.name).toBe('Inline Ann');
  // When the nested object's pk names a stored row, the row is the entity.
  const two = cache.selectQuery(state, Article, '2');
  expect(two?.author).toBeInstanceOf(User);
  expect(two?.author.name).toBe('Stored Bob');
  expect(two?.author).toBe(cache.selectQuery(state, User, 'u2'));
  expect(cache.selectQuery(state, Article, '1')).toBe(one);
});

describe('Entity indexes', () => {
  class Member extends Entity {
    id = '';
    username = '';
    static override key = 'Member';
    static override indexes = ['username'] as const;
  }

  test('selectQuery(Entity, { indexedField }) finds the row through an index kept in the slice', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set([Member], [{ id: 'm1', username: 'ann' }, { id: 'm2', username: 'bob' }]));
    const state = store.getState();
    const bob = cache.selectQuery(state, Member, { username: 'bob' });
    expect(bob).toBeInstanceOf(Member);
    expect(bob?.id).toBe('m2');
    expect(bob).toBe(cache.selectQuery(state, Member, 'm2'));
    expect(cache.selectQuery(state, Member, { username: 'bob' })).toBe(bob);
    expect(cache.selectQuery(state, Member, { username: 'nobody' })).toBeUndefined();
    const table = state.cache.entities['Member@username']!;
    expect(Object.getPrototypeOf(table)).toBeNull();
    expect(snapshot(table)).toEqual({ ann: ['m1'], bob: ['m2'] });
  });

  test('every write and deletion keeps the index current', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Member, { id: 'm1', username: 'ann' }));
    store.dispatch(cache.set(Member, { id: 'm1', username: 'anna' }));
    let state = store.getState();
    expect(cache.selectQuery(state, Member, { username: 'ann' })).toBeUndefined();
    expect(cache.selectQuery(state, Member, { username: 'anna' })?.id).toBe('m1');
    expect(snapshot(state.cache.entities['Member@username'])).toEqual({ ann: null, anna: ['m1'] });
    // A write without the field keeps the stored value and its entry.
    store.dispatch(cache.set(Member, { id: 'm1' }));
    expect(cache.selectQuery(store.getState(), Member, { username: 'anna' })?.id).toBe('m1');
    // An unrelated write keeps the read's result identical.
    const anna = cache.selectQuery(store.getState(), Member, { username: 'anna' });
    store.dispatch(cache.set(User, { id: 'u1', name: 'x' }));
    expect(cache.selectQuery(store.getState(), Member, { username: 'anna' })).toBe(anna);
    store.dispatch(cache.set(new Invalidate(Member), 'm1'));
    state = store.getState();
    expect(cache.selectQuery(state, Member, { username: 'anna' })).toBeUndefined();
    expect(snapshot(state.cache.entities['Member@username'])).toEqual({ ann: null, anna: null });
    expect(JSON.parse(JSON.stringify(state.cache))).toEqual(snapshot(state.cache));
  });

  test('an index value of __proto__ is ordinary data', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Member, JSON.parse('{"id":"m9","username":"__proto__"}')));
    const table = store.getState().cache.entities['Member@username']!;
    expect(Object.prototype.hasOwnProperty.call(table, '__proto__')).toBe(true);
    expect(cache.selectQuery(store.getState(), Member, { username: '__proto__' })?.id).toBe('m9');
    expect(cache.selectQuery(store.getState(), Member, { username: 'constructor' })).toBeUndefined();
  });
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

/**
 * The data-client read behaviors its users rely on (issue 22): each test is named after the
 * behavior and written the way a data-client user would write it.
 */
import { All, Entity, Invalidate, Union, denormalize } from '../../src/index';
import { makeStore } from '../fixtures/store';
import { endpoint } from '../fixtures/writes';

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
  store.dispatch(
    cache.set(
      [User],
      [
        { id: 'u1', name: 'Ann' },
        { id: 'u2', name: 'Bob' },
      ],
    ),
  );
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

test('a development warning when a Union read meets a bare string where a ref object is needed', () => {
  class Dog extends Entity {
    id = '';
    static override key = 'Dog';
  }
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const pets = new Union({ dogs: Dog }, 'type');
  const getPet = endpoint('GET /pet', pets);
  const { cache, store } = makeStore(
    {},
    {
      preloadedState: {
        cache: { entities: {}, entitiesMeta: {}, endpoints: { [getPet.key()]: 'rex-7' }, meta: {}, lastReset: 0 },
      },
    },
  );
  expect(cache.selectResponse(store.getState(), getPet).data).toBe('rex-7');
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]![0])).toContain('rex-7');
});

test('a nested object stored where a ref is expected reads as the entity', () => {
  const { cache, store } = makeStore(
    {},
    {
      preloadedState: {
        cache: {
          entities: {
            Article: {
              1: { id: '1', title: 'Hi', author: { id: 'u1', name: 'Inline Ann' } },
              2: { id: '2', title: 'Yo', author: { id: 'u2' } },
            },
            User: { u2: { id: 'u2', name: 'Stored Bob' } },
          },
          entitiesMeta: {},
          endpoints: {},
          meta: {},
          lastReset: 0,
        },
      },
    },
  );
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

test('a schema map whose members are all plain values returns the stored object itself', () => {
  const schema = { firstThing: { five: 0, seven: 0 }, secondThing: { cars: '' } };
  const getThings = endpoint('GET /things', schema);
  const mixed = endpoint('GET /mixed', { user: User, page: { next: '' } });
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getThings, { firstThing: { five: 5, seven: 42 }, secondThing: { cars: 'fifo' } }));
  store.dispatch(cache.setResponse(mixed, { user: { id: 'u1', name: 'Ann' }, page: { next: 'p2' } }));
  const state = store.getState();
  const stored = state.cache.endpoints[getThings.key()];
  const read = cache.selectResponse(state, getThings).data;
  expect(read).toEqual({ firstThing: { five: 5, seven: 42 }, secondThing: { cars: 'fifo' } });
  expect(read).toBe(stored);
  expect(cache.selectResponse(store.getState(), getThings).data).toBe(read);
  // The read without a memo too.
  expect(denormalize(schema, stored, [], state.cache)).toBe(stored);
  // With an entity member the object is a copy, and its plain members are still the stored ones.
  const both = cache.selectResponse(state, mixed).data!;
  expect(both).not.toBe(state.cache.endpoints[mixed.key()]);
  expect(both.user).toBeInstanceOf(User);
  expect(both.page).toBe((state.cache.endpoints[mixed.key()] as { page: object }).page);
  expect(Object.isFrozen(both)).toBe(true);
});

test('a Union read meeting a bare string returns it and warns', () => {
  class Person extends Entity {
    id = '';
    username = '';
    static override key = 'Person';
  }
  class Team extends Entity {
    id = '';
    groupname = '';
    static override key = 'Team';
  }
  const attribute = (input: { username?: string; groupname?: string }) =>
    input.username ? 'users' : input.groupname ? 'groups' : 'unknown';
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Person, { id: '1', username: 'Janey' }));
  const slice = store.getState().cache;
  // As data-client's tests do: each schema made anew warns for what it meets.
  for (const round of [1, 2]) {
    const union = new Union({ users: Person, groups: Team }, attribute);
    expect(denormalize(union, '1', [], slice)).toBe('1');
    expect(warn).toHaveBeenCalledTimes(round);
    expect(String(warn.mock.calls[round - 1]![0])).toContain('"1"');
    // Read again through the same schema: returned again, not warned again.
    expect(denormalize(union, '1', [], slice)).toBe('1');
    expect(warn).toHaveBeenCalledTimes(round);
  }
  const union = new Union({ users: Person, groups: Team }, attribute);
  expect(denormalize(union, 7, [], slice)).toBe(7);
  expect(String(warn.mock.calls.at(-1)![0])).toContain('number 7');
  // A raw member of no known type is returned, and warned, the same way.
  const raw = { id: '1' };
  expect(denormalize(union, raw, [], slice)).toBe(raw);
  expect(String(warn.mock.calls.at(-1)![0])).toMatch(/unknown type/);
  const calls = warn.mock.calls.length;
  // Production builds say nothing.
  const env = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    jest.isolateModules(() => {
      /* eslint-disable @typescript-eslint/no-require-imports */
      const lib = require('../../src/index') as typeof import('../../src/index');
      /* eslint-enable @typescript-eslint/no-require-imports */
      const quiet = new lib.Union({ users: Person, groups: Team }, attribute);
      expect(lib.denormalize(quiet, '1', [], slice)).toBe('1');
    });
  } finally {
    process.env.NODE_ENV = env;
  }
  expect(warn).toHaveBeenCalledTimes(calls);
});

test('a nested object stored where a ref is expected reads as the stored entity (its table row), also under a depth limit', () => {
  class Step extends Entity {
    id = '';
    name = '';
    next?: Step | string;
    static override key = 'Step';
    static override schema: Record<string, unknown> = {};
  }
  Step.schema = { next: Step };
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const entities = {
    Step: {
      a0: { id: 'a0', next: 'a1' },
      a1: { id: 'a1', next: { id: 'a2', name: 'inline' } },
      a2: { id: 'a2', name: 'stored', next: 'a3' },
      a3: { id: 'a3', name: 'deep' },
      b0: { id: 'b0', next: 'b1' },
      b1: { id: 'b1', next: { id: 'b9', name: 'only inline', next: 'a3' } },
      // Inline objects nested in inline objects count as levels too.
      c0: { id: 'c0', next: { id: 'c1', next: { id: 'c2', next: 'a3' } } },
    },
  };
  const { cache, store } = makeStore(
    { maxEntityDepth: 2 },
    {
      preloadedState: {
        cache: { entities, entitiesMeta: {}, endpoints: {}, meta: {}, lastReset: 0 },
      },
    },
  );
  const state = store.getState();
  const read = (id: string) => cache.selectQuery(state, Step, id) as Step;
  // Within the limit, the row: a1 (depth 2) holds a2 inline, which names the stored a2.
  const a1 = read('a1');
  expect(a1.next).toBeInstanceOf(Step);
  expect((a1.next as Step).name).toBe('stored');
  // Past the limit the inline a2 is still the stored entity, its own refs left as stored.
  const a0 = read('a0');
  const cutA2 = (a0.next as Step).next as Step;
  expect(cutA2).toBeInstanceOf(Step);
  expect(cutA2.name).toBe('stored');
  expect(cutA2.next).toBe('a3');
  expect(Object.isFrozen(cutA2)).toBe(true);
  // An object that names no stored row is the entity built from itself, past the limit too.
  const cutB9 = (read('b0').next as Step).next as Step;
  expect(cutB9).toBeInstanceOf(Step);
  expect(cutB9.name).toBe('only inline');
  expect(cutB9.next).toBe('a3');
  const c2 = (read('c0').next as Step).next;
  expect(c2).toBeInstanceOf(Step);
  expect((c2 as Step).next).toBe('a3');
  // A string ref past the limit stays as stored, with one warning for all of it.
  expect((read('a1').next as Step).next).toBe('a3');
  expect(warn).toHaveBeenCalledTimes(1);
  // The memoized read is the same object each time, and equal to the read without a memo.
  expect(read('a0')).toBe(a0);
  expect(denormalize(Step, 'a0', [], state.cache, { maxEntityDepth: 2 })).toEqual(a0);
});

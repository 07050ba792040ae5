/** Collection (see docs/Collection.md): argument-keyed lists, their pks, refetches, and reads without a response. */
import { Collection, Entity, ErrorCode, Union, Values } from '../../src/index';
import { Post, User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint } from '../fixtures/writes';

const posts = new Collection([Post]);
const getPosts = endpoint('GET /:group/posts', posts);

function post(id: string, title = `Post ${id}`, author = '1') {
  return { id, title, author: { id: author, name: `User ${author}` } };
}

describe('table and pk', () => {
  test('a list collection stores refs under [Member], keyed by its args', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.setResponse(getPosts, { group: 'react' }, [post('1'), post('2')]));
    const state = store.getState().cache;
    expect(state.entities['[Post]']).toEqual({ '{"group":"react"}': ['1', '2'] });
    expect(state.endpoints[getPosts.key({ group: 'react' })]).toBe('{"group":"react"}');
    expect(state.entities.Post!['1']).toEqual({ id: '1', title: 'Post 1', author: '1' });
  });

  test('a Values collection is stored under {Member} as a map of refs', () => {
    const byId = new Collection(new Values(User));
    const { cache, store } = makeStore();
    store.dispatch(cache.set(byId, { team: 'a' }, { x: { id: '1', name: 'A' }, y: { id: '2', name: 'B' } }));
    expect(snapshot(store.getState().cache.entities['{User}'])).toEqual({ '{"team":"a"}': { x: '1', y: '2' } });
  });

  test('a Union member names the table after every member key, in declaration order', () => {
    class Group extends Entity {
      id = '';
      static override key = 'Group';
    }
    const members = new Collection([new Union({ users: User, groups: Group }, 'type')]);
    expect(members.key).toBe('[User;Group]');
    const { cache, store } = makeStore();
    store.dispatch(
      cache.set(members, {}, [
        { id: '1', type: 'users' },
        { id: '1', type: 'groups' },
      ]),
    );
    expect(snapshot(store.getState().cache.entities['[User;Group]'])).toEqual({
      '{}': [
        { id: '1', schema: 'users' },
        { id: '1', schema: 'groups' },
      ],
    });
  });

  test('pks sort keys at every level, stringify numbers and booleans, drop undefined and keep null', () => {
    expect(posts.pk({ b: 2, a: true, c: undefined, d: null, e: 'x' })).toBe('{"a":"true","b":"2","d":null,"e":"x"}');
    expect(posts.pk({ z: { y: 1, x: [false, undefined] }, a: 'q' })).toBe('{"a":"q","z":{"x":["false",null],"y":"1"}}');
    expect(posts.pk({ 10: 'a', 9: 'b', b: 'c' })).toBe('{"10":"a","9":"b","b":"c"}');
    expect(posts.pk()).toBe('{}');
    expect(posts.pk(undefined)).toBe('{}');
    expect(posts.pk({ page: 1, group: 'react' })).toBe(posts.pk({ group: 'react', page: '1' }));
  });

  test('argsKey decides which args make separate lists', () => {
    const shared = new Collection([Post], { argsKey: ({ group }: { group: string }) => ({ group }) });
    expect(shared.pk({ group: 'r', portfolio: 'A' })).toBe(shared.pk({ group: 'r', portfolio: 'B' }));
  });
});

describe('refetch and ordering', () => {
  test('a refetch replaces the list rather than merging it', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.setResponse(getPosts, { group: 'react' }, [post('1'), post('2')]));
    store.dispatch(cache.setResponse(getPosts, { group: 'react' }, [post('3')]));
    expect(store.getState().cache.entities['[Post]']!['{"group":"react"}']).toEqual(['3']);
    // The entities of the old list stay in their table.
    expect(Object.keys(store.getState().cache.entities.Post!)).toEqual(['1', '2', '3']);
  });

  test('an older response keeps the newer list and its meta', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.resolve(getPosts, { args: [{ group: 'react' }], response: [post('2')], fetchedAt: 2000 }));
    const before = store.getState().cache;
    store.dispatch(cache.resolve(getPosts, { args: [{ group: 'react' }], response: [post('1')], fetchedAt: 1000 }));
    const after = store.getState().cache;
    expect(after.entities['[Post]']!['{"group":"react"}']).toBe(before.entities['[Post]']!['{"group":"react"}']);
    expect(after.entitiesMeta['[Post]']!['{"group":"react"}']!.fetchedAt).toBe(2000);
  });

  test('an equal fetchedAt counts as newer and replaces the list', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.resolve(getPosts, { args: [{ group: 'react' }], response: [post('2')], fetchedAt: 2000 }));
    store.dispatch(cache.resolve(getPosts, { args: [{ group: 'react' }], response: [post('1')], fetchedAt: 2000 }));
    expect(store.getState().cache.entities['[Post]']!['{"group":"react"}']).toEqual(['1']);
  });

  test('refetching identical content keeps the list object (no patch)', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.setResponse(getPosts, { group: 'react' }, [post('1')]));
    const list = store.getState().cache.entities['[Post]']!['{"group":"react"}'];
    const read = cache.selectQuery(store.getState(), posts, { group: 'react' });
    store.dispatch(cache.setResponse(getPosts, { group: 'react' }, [post('1')]));
    expect(store.getState().cache.entities['[Post]']!['{"group":"react"}']).toBe(list);
    expect(cache.selectQuery(store.getState(), posts, { group: 'react' })).toBe(read);
  });

  test('null members are kept, as in plain arrays', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.setResponse(getPosts, {}, [post('1'), null]));
    expect(store.getState().cache.entities['[Post]']!['{}']).toEqual(['1', null]);
  });
});

describe('nested collections (nestKey)', () => {
  class Author extends Entity {
    id = '';
    name = '';
    posts: Post[] = [];
    static override key = 'Author';
    static override schema = {
      posts: new Collection([Post], { nestKey: (parent: { id: string }) => ({ author: parent.id }) }),
    };
  }
  const postsByAuthor = new Collection([Post], { argsKey: ({ author }: { author: string }) => ({ author }) });

  test('the parent row holds the pk, and a top-level collection with the same pk shares the row', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Author, {}, { id: '1', name: 'Ann', posts: [post('1'), post('2')] }));
    const state = store.getState().cache;
    expect(state.entities.Author!['1']).toEqual({ id: '1', name: 'Ann', posts: '{"author":"1"}' });
    expect(state.entities['[Post]']).toEqual({ '{"author":"1"}': ['1', '2'] });

    const author = cache.selectQuery(store.getState(), Author, '1')!;
    const list = cache.selectQuery(store.getState(), postsByAuthor, { author: '1' })!;
    expect(list.map(item => item.id)).toEqual(['1', '2']);
    expect(author.posts).toBe(list);
  });

  test('a top-level write of the shared list reaches the nested read', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Author, {}, { id: '1', name: 'Ann', posts: [post('1')] }));
    const before = cache.selectQuery(store.getState(), Author, '1')!;
    store.dispatch(cache.set(postsByAuthor, { author: '1' }, [post('1'), post('5')]));
    const after = cache.selectQuery(store.getState(), Author, '1')!;
    expect(after).not.toBe(before);
    expect(after.posts.map(item => item.id)).toEqual(['1', '5']);
    expect(after.posts[0]).toBe(before.posts[0]);
  });

  test('without nestKey a nested collection is keyed by the args', () => {
    class Board extends Entity {
      id = '';
      static override key = 'Board';
      static override schema = { posts: posts };
    }
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Board, { group: 'react' }, { id: 'b', posts: [post('1')] }));
    expect(store.getState().cache.entities.Board!.b).toEqual({ id: 'b', posts: '{"group":"react"}' });
  });
});

describe('reads without a response, and identity', () => {
  test('readable once its row exists, an empty list included; undefined before', () => {
    const { cache, store } = makeStore();
    expect(cache.selectQuery(store.getState(), posts, { group: 'react' })).toBeUndefined();
    store.dispatch(cache.set(posts, { group: 'react' }, []));
    expect(cache.selectQuery(store.getState(), posts, { group: 'react' })).toEqual([]);
    expect(cache.selectQuery(store.getState(), posts, { group: 'vue' })).toBeUndefined();
    expect(cache.selectQuery(store.getState(), posts, null)).toBeUndefined();
  });

  test('args in any key order, and numbers or their strings, read the same list', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(posts, { group: 'react', page: 1 }, [post('1')]));
    const list = cache.selectQuery(store.getState(), posts, { page: '1', group: 'react' });
    expect(list?.map(item => item.title)).toEqual(['Post 1']);
    expect(cache.selectQuery(store.getState(), posts, { group: 'react', page: 1 })).toBe(list);
  });

  test('argsKey: () => ({}) shares one list across lenses', () => {
    const companies = new Collection([User], { argsKey: () => ({}) });
    const { cache, store } = makeStore();
    store.dispatch(cache.set(companies, { portfolio: 'A' }, [{ id: '1', name: 'Acme' }]));
    const atA = cache.selectQuery(store.getState(), companies, { portfolio: 'A' });
    expect(atA?.map(item => item.name)).toEqual(['Acme']);
    expect(cache.selectQuery(store.getState(), companies, { portfolio: 'B' })).toBe(atA);
  });

  test('the same list is returned until it changes, across unrelated writes', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(posts, { group: 'react' }, [post('1'), post('2')]));
    store.dispatch(cache.set(posts, { group: 'vue' }, [post('3')]));
    const react = cache.selectQuery(store.getState(), posts, { group: 'react' })!;
    const vue = cache.selectQuery(store.getState(), posts, { group: 'vue' })!;
    store.dispatch({ type: 'other/bump' });
    store.dispatch(cache.set(posts, { group: 'vue' }, [post('3'), post('4')]));
    expect(cache.selectQuery(store.getState(), posts, { group: 'react' })).toBe(react);
    const vueAfter = cache.selectQuery(store.getState(), posts, { group: 'vue' })!;
    expect(vueAfter).not.toBe(vue);
    expect(vueAfter[0]).toBe(vue[0]);
  });

  test('a member update makes a new list holding the new member and the same others', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(posts, { group: 'react' }, [post('1'), post('2')]));
    const before = cache.selectQuery(store.getState(), posts, { group: 'react' })!;
    store.dispatch(cache.set(Post, {}, { id: '2', title: 'Renamed' }));
    const after = cache.selectQuery(store.getState(), posts, { group: 'react' })!;
    expect(after).not.toBe(before);
    expect(after[0]).toBe(before[0]);
    expect(after[1]!.title).toBe('Renamed');
  });

  test('deleted and missing members are dropped', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(posts, {}, [post('1'), post('2'), '9']));
    store.dispatch(cache.set(Post, {}, { id: '1', title: 'x' }));
    // A subclass that deletes shares Post's table (and warns once about the shared key).
    jest.spyOn(console, 'warn').mockImplementation(() => {});
    class Gone extends Post {
      static override process() {
        return undefined;
      }
    }
    store.dispatch(cache.set(Gone, {}, { id: '2' }));
    expect(cache.selectQuery(store.getState(), posts, {})?.map(item => item.id)).toEqual(['1']);
    jest.restoreAllMocks();
  });

  test('a Values collection reads as a map, dropping missing members', () => {
    const byId = new Collection(new Values(User));
    const { cache, store } = makeStore();
    store.dispatch(cache.set(byId, {}, { a: { id: '1', name: 'A' }, b: '7' }));
    const map = cache.selectQuery(store.getState(), byId, {})!;
    expect(Object.keys(map)).toEqual(['a']);
    expect(map.a!.name).toBe('A');
    expect(cache.selectQuery(store.getState(), byId, {})).toBe(map);
  });
});

describe('bad input: clear errors, store unchanged', () => {
  test.each([
    ['an object for a list collection', posts, { results: [] }, /expected an array.*\{ results: collection \}/s],
    ['a string for a list collection', posts, '[]', /not parsed as JSON/],
    ['an array for a Values collection', new Collection(new Values(User)), [{ id: '1' }], /expected an object/],
  ])('%s → UNEXPECTED_INPUT', (_, schema, value, message) => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(posts, { group: 'react' }, [post('1')]));
    const before = store.getState();
    const error = catchError(() =>
      store.dispatch(cache.set(schema as typeof posts, { group: 'react' }, value as never)),
    );
    expect(error.code).toBe(ErrorCode.UNEXPECTED_INPUT);
    expect(error.message).toMatch(message);
    expect(store.getState()).toBe(before);
  });

  test('a response that fails to normalize is stored as the request error and writes no list', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Post, { id: 'kept', title: 'kept' }));
    const before = store.getState().cache;
    store.dispatch(cache.setResponse(getPosts, { group: 'react' }, { nope: true }));
    const state = store.getState().cache;
    expect(state.entities).toBe(before.entities);
    expect(state.entitiesMeta).toBe(before.entitiesMeta);
    expect(state.endpoints).toBe(before.endpoints);
    expect(state.entities['[Post]']).toBeUndefined();
    expect(state.meta[getPosts.key({ group: 'react' })]!.error).toMatchObject({ code: ErrorCode.UNEXPECTED_INPUT });
  });

  test('non-object args with the default argsKey, and an argsKey returning a non-object, are rejected on write', () => {
    const { cache, store } = makeStore();
    const before = store.getState();
    expect(catchError(() => store.dispatch(cache.set(posts, 'react', []))).message).toMatch(
      /names its lists by the params object \(args\[0\]\), but received string "react"/,
    );
    const bad = new Collection([Post], { argsKey: () => 'x' as never });
    expect(catchError(() => store.dispatch(cache.set(bad, {}, []))).code).toBe(ErrorCode.UNEXPECTED_INPUT);
    expect(store.getState()).toBe(before);
    // Reads never throw for such args: the list is simply not cached.
    expect(cache.selectQuery(store.getState(), posts, 'react')).toBeUndefined();
  });

  test('schema errors at construction', () => {
    expect(catchError(() => new Collection(Post as never)).code).toBe(ErrorCode.INVALID_SCHEMA);
    expect(catchError(() => new Collection([Post, User] as never)).code).toBe(ErrorCode.INVALID_SCHEMA);
    expect(catchError(() => new Collection([{ a: Post }] as never)).code).toBe(ErrorCode.INVALID_SCHEMA);
    expect(catchError(() => new Collection([new Values(Post)] as never)).code).toBe(ErrorCode.INVALID_SCHEMA);
  });

  test('options of the wrong kind are refused at construction, naming the option', () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /options must be an object/],
      [{ argsKey: 'group' }, /argsKey must be a function/],
      [{ nestKey: {} }, /nestKey must be a function/],
      [{ nonFilterArgumentKeys: 7 }, /nonFilterArgumentKeys must be a RegExp, a list of param names or a function/],
      [{ nonFilterArgumentKeys: ['orderBy', 1] }, /nonFilterArgumentKeys must be/],
    ];
    for (const [options, message] of cases) {
      const error = catchError(() => new Collection([Post], options as never));
      expect(error.code).toBe(ErrorCode.INVALID_SCHEMA);
      expect(error.message).toMatch(message);
    }
    for (const nonFilterArgumentKeys of [/^sort/, ['sort'], (key: string) => key === 'sort'])
      expect(new Collection([Post], { nonFilterArgumentKeys }).nonFilterArgumentKeys('sort')).toBe(true);
  });
});

test('a custom argsKey that destructures its params also reads and writes without params', () => {
  const byGroup = new Collection([Post], { argsKey: ({ group }: { group?: string }) => ({ group }) });
  const { cache, store } = makeStore();
  store.dispatch(cache.set(byGroup, [post('1')]));
  expect(Object.keys(store.getState().cache.entities['[Post]']!)).toEqual(['{}']);
  const list = cache.selectQuery(store.getState(), byGroup);
  expect(list?.map(item => item.id)).toEqual(['1']);
  expect(cache.selectQuery(store.getState(), byGroup, {})).toBe(list);
});

/**
 * Collection creation and movement schemas (see docs/Collection.md, "Creates, removals and moves"): `push`, `unshift`, `assign`, `remove`
 * and `move`. Which stored lists an op reaches (matching, non-filter keys), what it does to each,
 * what it returns, and that it never creates a list, breaks ordering, or touches the store on
 * bad input.
 */
import { Collection, Entity, ErrorCode, Union, Values } from '../../src/index';
import { Post, User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint, expectRejected } from '../fixtures/writes';

type Store = ReturnType<typeof makeStore>['store'];
type Cache = ReturnType<typeof makeStore>['cache'];

interface PostArgs {
  group?: string;
  orderBy?: string;
}

/** A post as the server sends it; the author is optional so pushes stay small. */
function post(id: string, title = `Post ${id}`) {
  return { id, title };
}

/** An entity that stores the field its lists filter on, for moves decided by stored values. */
class Article extends Entity {
  id = '';
  title = '';
  group = '';
  static override key = 'Article';
}

function article(id: string, group: string, title = `Article ${id}`) {
  return { id, title, group };
}

class Group extends Entity {
  id = '';
  title = '';
  static override key = 'Group';
}

const posts = new Collection([Post]);
const sortedPosts = new Collection([Post], { argsKey: ({ group, orderBy }: PostArgs) => ({ group, orderBy }) });
const articles = new Collection([Article]);
const usersByKey = new Collection(new Values(User));
const members = new Collection([new Union({ users: User, groups: Group }, 'type')]);

function slice(store: Store) {
  return store.getState().cache;
}

/** The stored row (refs) of `collection` for `args`, or undefined when there is none. */
function row(store: Store, collection: Collection<any>, ...args: unknown[]): unknown {
  return slice(store).entities[collection.key]?.[collection.pk(...args)];
}

/** Stores one list per entry of `lists` (params → items) through a full-list write. */
function seed(store: Store, cache: Cache, collection: Collection<any>, lists: Array<[object, unknown]>): void {
  for (const [params, items] of lists) store.dispatch(cache.set(collection, params, items));
}

/** Titles of a collection read, in order. */
function titles(value: unknown): string[] {
  return (value as Array<{ title: string }>).map(item => item.title);
}

afterEach(() => {
  jest.restoreAllMocks();
});

describe('matching', () => {
  function sortedStore() {
    const { cache, store } = makeStore();
    seed(store, cache, sortedPosts, [
      [{ group: 'react', orderBy: 'title' }, [post('1')]],
      [{ group: 'react' }, [post('1')]],
      [{ group: 'vue', orderBy: 'title' }, [post('2')]],
      [{}, [post('1'), post('2')]],
    ]);
    return { cache, store };
  }

  test('a push with { group } reaches the sorted list of that group, the unsorted one and {}', () => {
    const { cache, store } = sortedStore();
    store.dispatch(cache.set(sortedPosts.push, { group: 'react' }, post('9')));
    expect(row(store, sortedPosts, { group: 'react', orderBy: 'title' })).toEqual(['1', '9']);
    expect(row(store, sortedPosts, { group: 'react' })).toEqual(['1', '9']);
    expect(row(store, sortedPosts, {})).toEqual(['1', '2', '9']);
  });

  test('the same push does not reach another group, whose row keeps its identity', () => {
    const { cache, store } = sortedStore();
    const vue = row(store, sortedPosts, { group: 'vue', orderBy: 'title' });
    store.dispatch(cache.set(sortedPosts.push, { group: 'react' }, post('9')));
    expect(row(store, sortedPosts, { group: 'vue', orderBy: 'title' })).toBe(vue);
    expect(vue).toEqual(['2']);
  });

  test('a push without params reaches only {}-keyed lists', () => {
    const { cache, store } = sortedStore();
    const react = row(store, sortedPosts, { group: 'react' });
    store.dispatch(cache.set(sortedPosts.push, post('9')));
    expect(row(store, sortedPosts, {})).toEqual(['1', '2', '9']);
    expect(row(store, sortedPosts, { group: 'react' })).toBe(react);
  });

  test('extra args never block a match', () => {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [[{ group: 'react' }, [post('1')]]]);
    store.dispatch(cache.set(posts.push, { group: 'react', page: 2, portfolio: 'A' }, { draft: true }, post('9')));
    expect(row(store, posts, { group: 'react' })).toEqual(['1', '9']);
  });

  test('a filter key the args lack blocks the match', () => {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [[{ group: 'react', author: '2' }, [post('1')]]]);
    const before = row(store, posts, { group: 'react', author: '2' });
    store.dispatch(cache.set(posts.push, { group: 'react' }, post('9')));
    expect(row(store, posts, { group: 'react', author: '2' })).toBe(before);
  });

  test('the body (args[1]) counts as a source beside the params', () => {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [
      [{ group: 'react', author: '2' }, [post('1')]],
      [{ group: 'react', author: '3' }, [post('1')]],
    ]);
    const three = row(store, posts, { group: 'react', author: '3' });
    const createPost = endpoint('POST /:group/posts', posts.push);
    store.dispatch(cache.setResponse(createPost, { group: 'react' }, { author: '2', title: 'Hi' }, post('9')));
    expect(row(store, posts, { group: 'react', author: '2' })).toEqual(['1', '9']);
    expect(row(store, posts, { group: 'react', author: '3' })).toBe(three);
  });

  test.each<[string, object, object, boolean]>([
    ['number args match a stringified pk', { page: 1 }, { page: 1 }, true],
    ['a string arg matches a number pk', { page: 1 }, { page: '1' }, true],
    ['a number arg matches a string pk', { page: '1' }, { page: 1 }, true],
    ['another number does not match', { page: 1 }, { page: 2 }, false],
    ['true matches "true"', { published: true }, { published: true }, true],
    ['"true" matches true', { published: true }, { published: 'true' }, true],
    ['false does not match true', { published: true }, { published: false }, false],
    ['null matches null', { group: null }, { group: null }, true],
    ['the string "null" does not match null', { group: null }, { group: 'null' }, false],
    ['a missing key does not match null', { group: null }, {}, false],
    ['undefined counts as absent', { group: 'react' }, { group: undefined }, false],
    ['nested values compare canonically', { filter: { a: 1, b: 'x' } }, { filter: { b: 'x', a: '1' } }, true],
  ])('canonical values: %s', (_name, listParams, pushParams, reached) => {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [[listParams, [post('1')]]]);
    const before = row(store, posts, listParams);
    expect(before).toEqual(['1']);
    store.dispatch(cache.set(posts.push, pushParams, post('9')));
    if (reached) expect(row(store, posts, listParams)).toEqual(['1', '9']);
    else expect(row(store, posts, listParams)).toBe(before);
  });

  test('a list nested in an entity (nestKey) is reached by its pk values, and reads back through the parent', () => {
    class Author extends Entity {
      id = '';
      posts: Post[] = [];
      static override key = 'Author';
      static override schema = {
        posts: new Collection([Post], { nestKey: (parent: { id: string }) => ({ authorId: parent.id }) }),
      };
    }
    const byAuthor = Author.schema.posts;
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Author, { id: 'a1', posts: [post('1')] }));
    store.dispatch(cache.set(byAuthor.push, { authorId: 'a1' }, post('9')));
    expect(row(store, byAuthor, { authorId: 'a1' })).toEqual(['1', '9']);
    const author = cache.selectQuery(store.getState(), Author, 'a1') as unknown as Author;
    expect(titles(author.posts)).toEqual(['Post 1', 'Post 9']);
  });

  test('pk keys named __proto__ match as ordinary data, never through the prototype', () => {
    const protoArgs = () => JSON.parse('{"__proto__":"x"}') as object;
    const { cache, store } = makeStore();
    seed(store, cache, posts, [
      [protoArgs(), [post('1')]],
      [{}, [post('1')]],
    ]);
    const protoList = row(store, posts, protoArgs());
    expect(protoList).toEqual(['1']);
    store.dispatch(cache.set(posts.push, {}, post('2')));
    expect(row(store, posts, protoArgs())).toBe(protoList);
    store.dispatch(cache.set(posts.push, protoArgs(), post('3')));
    expect(row(store, posts, protoArgs())).toEqual(['1', '3']);
    expect(row(store, posts, {})).toEqual(['1', '2', '3']);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});

describe('nonFilterArgumentKeys', () => {
  test('by default keys starting with "order" are not filters; others are', () => {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [
      [{ group: 'react', orderBy: 'title' }, [post('1')]],
      [{ group: 'react', order: 'desc' }, [post('1')]],
      [{ group: 'react', sortBy: 'title' }, [post('1')]],
    ]);
    const sortBy = row(store, posts, { group: 'react', sortBy: 'title' });
    store.dispatch(cache.set(posts.push, { group: 'react', orderBy: 'date' }, post('9')));
    expect(row(store, posts, { group: 'react', orderBy: 'title' })).toEqual(['1', '9']);
    expect(row(store, posts, { group: 'react', order: 'desc' })).toEqual(['1', '9']);
    expect(row(store, posts, { group: 'react', sortBy: 'title' })).toBe(sortBy);
  });

  test.each<[string, ConstructorParameters<typeof Collection>[1]]>([
    ['a RegExp', { nonFilterArgumentKeys: /^(page|cursor)$/ }],
    ['a global RegExp (no lastIndex state between rows)', { nonFilterArgumentKeys: /^(page|cursor)$/g }],
    ['a list of names', { nonFilterArgumentKeys: ['page', 'cursor'] }],
    ['a predicate', { nonFilterArgumentKeys: (key: string) => key === 'page' || key === 'cursor' }],
  ])('%s replaces the default', (_name, options) => {
    const paged = new Collection([Post], options);
    const { cache, store } = makeStore();
    seed(store, cache, paged, [
      [{ group: 'r', page: '1' }, [post('1')]],
      [{ group: 'r', page: '2' }, [post('2')]],
      [{ group: 'r', cursor: 'abc' }, [post('3')]],
      [{ group: 'r', orderBy: 'title' }, [post('4')]],
    ]);
    const ordered = row(store, paged, { group: 'r', orderBy: 'title' });
    store.dispatch(cache.set(paged.push, { group: 'r' }, post('9')));
    expect(row(store, paged, { group: 'r', page: '1' })).toEqual(['1', '9']);
    expect(row(store, paged, { group: 'r', page: '2' })).toEqual(['2', '9']);
    expect(row(store, paged, { group: 'r', cursor: 'abc' })).toEqual(['3', '9']);
    // orderBy is a filter once the option names other keys.
    expect(row(store, paged, { group: 'r', orderBy: 'title' })).toBe(ordered);
  });

  test('non-filter keys never change pks: {group} and {group, orderBy} are two rows', () => {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [
      [{ group: 'r' }, [post('1')]],
      [{ group: 'r', orderBy: 'title' }, [post('2')]],
    ]);
    expect(posts.pk({ group: 'r' })).not.toBe(posts.pk({ group: 'r', orderBy: 'title' }));
    expect(snapshot(slice(store).entities['[Post]'])).toEqual({
      '{"group":"r"}': ['1'],
      '{"group":"r","orderBy":"title"}': ['2'],
    });
    expect(titles(cache.selectQuery(store.getState(), posts, { group: 'r', orderBy: 'title' }))).toEqual(['Post 2']);
  });
});

describe('push and unshift', () => {
  function reactStore(items = [post('1'), post('2')]) {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [[{ group: 'react' }, items]]);
    return { cache, store };
  }

  test('push appends one item, or a list in order', () => {
    const { cache, store } = reactStore();
    store.dispatch(cache.set(posts.push, { group: 'react' }, post('3')));
    store.dispatch(cache.set(posts.push, { group: 'react' }, [post('4'), post('5')]));
    expect(row(store, posts, { group: 'react' })).toEqual(['1', '2', '3', '4', '5']);
  });

  test('unshift prepends a list keeping its order ([7,8] + [3] → [7,8,3])', () => {
    const { cache, store } = reactStore([post('3')]);
    store.dispatch(cache.set(posts.unshift, { group: 'react' }, [post('7'), post('8')]));
    expect(row(store, posts, { group: 'react' })).toEqual(['7', '8', '3']);
    store.dispatch(cache.set(posts.unshift, { group: 'react' }, post('1')));
    expect(row(store, posts, { group: 'react' })).toEqual(['1', '7', '8', '3']);
  });

  test('a list never holds a ref twice: pushing or unshifting an item it holds keeps its place', () => {
    const { cache, store } = reactStore();
    store.dispatch(cache.set(posts.push, { group: 'react' }, post('1')));
    expect(row(store, posts, { group: 'react' })).toEqual(['1', '2']);
    store.dispatch(cache.set(posts.unshift, { group: 'react' }, [post('2'), post('3'), post('3')]));
    expect(row(store, posts, { group: 'react' })).toEqual(['3', '1', '2']);
  });

  test('a push answered after a refetch that already lists the item leaves it once', () => {
    const { cache, store } = reactStore();
    const createPost = { key: () => 'POST /react/posts', schema: posts.push, sideEffect: true };
    const getPosts = endpoint('GET /:group/posts', posts);
    const pushStart = Date.now();
    // The refetch started after the push and already lists the created post; the push's answer lands last.
    store.dispatch(
      cache.resolve(getPosts, {
        args: [{ group: 'react' }],
        response: [post('1'), post('2'), post('7')],
        fetchedAt: pushStart + 5,
      }),
    );
    store.dispatch(
      cache.resolve(createPost, { args: [{ group: 'react' }], response: post('7'), fetchedAt: pushStart }),
    );
    expect(row(store, posts, { group: 'react' })).toEqual(['1', '2', '7']);
  });

  test('a page that lists an item twice is stored with it once, where it first appears', () => {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [[{}, [post('1'), post('2'), post('1'), post('3')]]]);
    expect(row(store, posts, {})).toEqual(['1', '2', '3']);
  });

  test('the pushed items create and update entity rows, nested ones included', () => {
    const { cache, store } = reactStore();
    store.dispatch(
      cache.set(posts.push, { group: 'react' }, [
        { id: '1', title: 'Renamed' },
        { id: '9', title: 'New', author: { id: '5', name: 'Eve' } },
      ]),
    );
    const state = slice(store);
    expect(state.entities.Post!['1']).toEqual({ id: '1', title: 'Renamed' });
    expect(state.entities.Post!['9']).toEqual({ id: '9', title: 'New', author: '5' });
    expect(state.entities.User!['5']).toEqual({ id: '5', name: 'Eve' });
  });

  test('as an endpoint schema the result is the list of new refs, read back as entities', () => {
    const { cache, store } = reactStore();
    const createPosts = endpoint('POST /:group/posts', posts.push);
    const args = [{ group: 'react' }, { title: 'New' }];
    store.dispatch(cache.setResponse(createPosts, ...args, [post('9'), post('10')]));
    expect(slice(store).endpoints[createPosts.key(...args)]).toEqual(['9', '10']);
    expect(titles(cache.selectResponse(store.getState(), createPosts, ...args).data)).toEqual(['Post 9', 'Post 10']);
  });

  test("an unshift endpoint result is the single item's ref for a single item", () => {
    const { cache, store } = reactStore();
    const createPost = endpoint('POST /:group/posts/first', posts.unshift);
    store.dispatch(cache.setResponse(createPost, { group: 'react' }, {}, post('9')));
    expect(slice(store).endpoints[createPost.key({ group: 'react' }, {})]).toBe('9');
    expect(row(store, posts, { group: 'react' })).toEqual(['9', '1', '2']);
  });

  test('with no list stored, a push creates no collection row (only the entity)', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(posts.push, { group: 'react' }, post('9')));
    const state = slice(store);
    expect(state.entities['[Post]']).toBeUndefined();
    expect(state.entitiesMeta['[Post]']).toBeUndefined();
    expect(state.entities.Post!['9']).toEqual({ id: '9', title: 'Post 9' });
    expect(cache.selectQuery(store.getState(), posts, { group: 'react' })).toBeUndefined();
  });

  test('a push that matches no stored list leaves the collection table as it was', () => {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [[{ group: 'vue' }, [post('1')]]]);
    const table = slice(store).entities['[Post]'];
    const tableMeta = slice(store).entitiesMeta['[Post]'];
    store.dispatch(cache.set(posts.push, { group: 'react' }, post('9')));
    expect(slice(store).entities['[Post]']).toBe(table);
    expect(slice(store).entitiesMeta['[Post]']).toBe(tableMeta);
    expect(Object.keys(table!)).toEqual(['{"group":"vue"}']);
  });
});

describe('ops ignore fetchedAt ordering', () => {
  const getPosts = endpoint('GET /:group/posts', posts);
  const createPost = endpoint('POST /:group/posts', posts.push);
  const prependPost = endpoint('POST /:group/posts/first', posts.unshift);
  const pk = posts.pk({ group: 'react' });

  function listAt(fetchedAt: number) {
    const { cache, store } = makeStore();
    store.dispatch(cache.resolve(getPosts, { args: [{ group: 'react' }], response: [post('1')], fetchedAt }));
    return { cache, store };
  }

  test('an older push still appends, and the list keeps its newer meta', () => {
    const { cache, store } = listAt(2000);
    const meta = slice(store).entitiesMeta['[Post]']![pk];
    expect(meta!.fetchedAt).toBe(2000);
    store.dispatch(cache.resolve(createPost, { args: [{ group: 'react' }, {}], response: post('9'), fetchedAt: 1000 }));
    expect(row(store, posts, { group: 'react' })).toEqual(['1', '9']);
    expect(slice(store).entitiesMeta['[Post]']![pk]).toEqual(meta);
  });

  test('an older unshift still prepends', () => {
    const { cache, store } = listAt(2000);
    store.dispatch(
      cache.resolve(prependPost, { args: [{ group: 'react' }, {}], response: post('9'), fetchedAt: 1000 }),
    );
    expect(row(store, posts, { group: 'react' })).toEqual(['9', '1']);
    expect(slice(store).entitiesMeta['[Post]']![pk]!.fetchedAt).toBe(2000);
  });

  test('an older remove still removes, and the list keeps its newer meta', () => {
    const { cache, store } = listAt(2000);
    const deletePost = endpoint('DELETE /:group/posts/:id', posts.remove);
    store.dispatch(cache.resolve(deletePost, { args: [{ group: 'react' }], response: '1', fetchedAt: 1000 }));
    expect(row(store, posts, { group: 'react' })).toEqual([]);
    expect(slice(store).entitiesMeta['[Post]']![pk]!.fetchedAt).toBe(2000);
  });

  test('a newer push moves the list meta forward', () => {
    const { cache, store } = listAt(2000);
    store.dispatch(cache.resolve(createPost, { args: [{ group: 'react' }, {}], response: post('9'), fetchedAt: 3000 }));
    expect(row(store, posts, { group: 'react' })).toEqual(['1', '9']);
    expect(slice(store).entitiesMeta['[Post]']![pk]!.fetchedAt).toBe(3000);
  });
});

describe('assign (Values collections)', () => {
  function teamStore() {
    const { cache, store } = makeStore();
    seed(store, cache, usersByKey, [
      [{ team: 'a' }, { x: { id: '1', name: 'A' }, y: { id: '2', name: 'B' } }],
      [{ team: 'b' }, { x: { id: '1', name: 'A' } }],
      [{}, {}],
    ]);
    return { cache, store };
  }

  test('merges entries into matching maps, incoming winning per key', () => {
    const { cache, store } = teamStore();
    const teamB = row(store, usersByKey, { team: 'b' });
    store.dispatch(
      cache.set(usersByKey.assign, { team: 'a' }, { y: { id: '3', name: 'C' }, z: { id: '4', name: 'D' } }),
    );
    expect(snapshot(row(store, usersByKey, { team: 'a' }))).toEqual({ x: '1', y: '3', z: '4' });
    expect(snapshot(row(store, usersByKey, {}))).toEqual({ y: '3', z: '4' });
    expect(row(store, usersByKey, { team: 'b' })).toBe(teamB);
    expect(slice(store).entities.User!['4']).toEqual({ id: '4', name: 'D' });
  });

  test('as an endpoint schema the result is a map of refs', () => {
    const { cache, store } = teamStore();
    const addMember = endpoint('PUT /teams/:team/members', usersByKey.assign);
    store.dispatch(cache.setResponse(addMember, { team: 'a' }, {}, { z: { id: '4', name: 'D' } }));
    expect(snapshot(slice(store).endpoints[addMember.key({ team: 'a' }, {})])).toEqual({ z: '4' });
  });

  test('an assign with content the map already holds keeps the row object', () => {
    const { cache, store } = teamStore();
    const teamA = row(store, usersByKey, { team: 'a' });
    store.dispatch(cache.set(usersByKey.assign, { team: 'a' }, { x: { id: '1', name: 'A' } }));
    expect(row(store, usersByKey, { team: 'a' })).toBe(teamA);
  });

  test('assign items get no placeholder: an item without a pk throws MISSING_PK', () => {
    const { cache, store } = teamStore();
    expectRejected(
      store,
      () => store.dispatch(cache.set(usersByKey.assign, { team: 'a' }, { z: { name: 'No id' } })),
      ErrorCode.MISSING_PK,
    );
  });

  test('.assign on a list collection and .push/.unshift on a Values collection throw INVALID_SCHEMA', () => {
    expect(catchError(() => posts.assign).code).toBe(ErrorCode.INVALID_SCHEMA);
    expect(catchError(() => usersByKey.push).code).toBe(ErrorCode.INVALID_SCHEMA);
    expect(catchError(() => usersByKey.unshift).code).toBe(ErrorCode.INVALID_SCHEMA);
    expect(usersByKey.remove).toBe(usersByKey.remove);
    expect(usersByKey.move).toBeDefined();
  });
});

describe('remove', () => {
  function groupsStore() {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [
      [{ group: 'react' }, [post('1'), post('2')]],
      [{ group: 'vue' }, [post('1'), post('3')]],
      [{}, [post('1'), post('2'), post('3')]],
    ]);
    return { cache, store };
  }

  test('with params it removes only from matching lists', () => {
    const { cache, store } = groupsStore();
    const vue = row(store, posts, { group: 'vue' });
    store.dispatch(cache.set(posts.remove, { group: 'react' }, '1'));
    expect(row(store, posts, { group: 'react' })).toEqual(['2']);
    expect(row(store, posts, {})).toEqual(['2', '3']);
    expect(row(store, posts, { group: 'vue' })).toBe(vue);
  });

  test.each<[string, unknown[]]>([
    ['{}', [{}]],
    ['no params', []],
    ['params whose keys are all undefined', [{ group: undefined }]],
    ['{} params, even with a body naming a group (judged on args[0])', [{}, { group: 'react' }]],
  ])('with %s it removes from every list of the table', (_name, args) => {
    const { cache, store } = groupsStore();
    store.dispatch(cache.set(posts.remove, ...args, { id: '1' }));
    expect(row(store, posts, { group: 'react' })).toEqual(['2']);
    expect(row(store, posts, { group: 'vue' })).toEqual(['3']);
    expect(row(store, posts, {})).toEqual(['2', '3']);
  });

  test('items may be pk strings, numbers, objects, or a list of them', () => {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [[{}, [post('1'), post('2'), post('3'), post('4')]]]);
    store.dispatch(cache.set(posts.remove, {}, 2));
    expect(row(store, posts, {})).toEqual(['1', '3', '4']);
    store.dispatch(cache.set(posts.remove, {}, ['1', { id: '3' }]));
    expect(row(store, posts, {})).toEqual(['4']);
  });

  test('an unknown pk is a no-op: nothing is dispatched and every row keeps its identity', () => {
    const { cache, store } = groupsStore();
    const before = slice(store);
    // Redux notifies subscribers of every dispatched action, changed state or not.
    let notified = 0;
    store.subscribe(() => notified++);
    store.dispatch(cache.set(posts.remove, { group: 'react' }, '99'));
    expect(notified).toBe(0);
    expect(slice(store)).toBe(before);
  });

  test('an unknown object leaves every list as it was', () => {
    const { cache, store } = groupsStore();
    const table = slice(store).entities['[Post]'];
    store.dispatch(cache.set(posts.remove, {}, post('99')));
    expect(slice(store).entities['[Post]']).toBe(table);
  });

  test("remove never deletes the entity row; the result is the removed item's ref", () => {
    const { cache, store } = groupsStore();
    const deletePost = endpoint('DELETE /:group/posts/:id', posts.remove);
    store.dispatch(cache.setResponse(deletePost, { group: 'react' }, {}, { id: '1' }));
    expect(slice(store).endpoints[deletePost.key({ group: 'react' }, {})]).toBe('1');
    expect(slice(store).entities.Post!['1']).toEqual({ id: '1', title: 'Post 1' });
    expect((cache.selectQuery(store.getState(), Post, '1') as unknown as Post).title).toBe('Post 1');
  });

  test('on a Values collection it removes every entry whose ref equals the item', () => {
    const { cache, store } = makeStore();
    seed(store, cache, usersByKey, [
      [{ team: 'a' }, { x: { id: '1', name: 'A' }, y: { id: '2', name: 'B' }, z: { id: '1', name: 'A' } }],
    ]);
    store.dispatch(cache.set(usersByKey.remove, { team: 'a' }, '1'));
    expect(snapshot(row(store, usersByKey, { team: 'a' }))).toEqual({ y: '2' });
  });

  test('polymorphic members match on id and schema: removing user 1 keeps group 1', () => {
    const { cache, store } = makeStore();
    seed(store, cache, members, [
      [
        {},
        [
          { id: '1', type: 'users', name: 'Ann' },
          { id: '1', type: 'groups', title: 'Admins' },
        ],
      ],
    ]);
    store.dispatch(cache.set(members.remove, {}, { id: '1', type: 'users' }));
    expect(row(store, members, {})).toEqual([{ id: '1', schema: 'groups' }]);
    const read = cache.selectQuery(store.getState(), members, {}) as unknown as Group[];
    expect(read).toHaveLength(1);
    expect(read[0]).toBeInstanceOf(Group);
  });
});

describe('move', () => {
  const movePost = endpoint('PATCH /:group/posts/:id', posts.move);

  function fiveTenStore() {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [
      [{ group: 'five' }, [post('1'), post('10')]],
      [{ group: 'ten' }, [post('2')]],
      [{ group: 'other' }, [post('10')]],
      [{}, [post('1'), post('10'), post('2')]],
    ]);
    return { cache, store };
  }

  test('path params the entity does not store: { id: "10" } leaves five and joins ten', () => {
    const { cache, store } = fiveTenStore();
    store.dispatch(
      cache.setResponse(movePost, { group: 'five', id: '10' }, { group: 'ten' }, { id: '10', title: 'Moved' }),
    );
    expect(row(store, posts, { group: 'five' })).toEqual(['1']);
    expect(row(store, posts, { group: 'ten' })).toEqual(['2', '10']);
    expect(slice(store).entities.Post!['10']).toEqual({ id: '10', title: 'Moved' });
    expect(slice(store).endpoints[movePost.key({ group: 'five', id: '10' }, { group: 'ten' })]).toBe('10');
  });

  test('lists matching both old and new ({}) or neither (other group) are untouched', () => {
    const { cache, store } = fiveTenStore();
    const all = row(store, posts, {});
    const other = row(store, posts, { group: 'other' });
    store.dispatch(cache.setResponse(movePost, { group: 'five', id: '10' }, { group: 'ten' }, { id: '10' }));
    expect(row(store, posts, {})).toBe(all);
    expect(row(store, posts, { group: 'other' })).toBe(other);
  });

  test('an item with no stored row is removed from nowhere but joins the new lists', () => {
    const { cache, store } = makeStore();
    // A list may hold a ref whose row was never stored (a bare pk in the response).
    seed(store, cache, posts, [
      [{ group: 'five' }, ['10']],
      [{ group: 'ten' }, [post('2')]],
    ]);
    expect(slice(store).entities.Post!['10']).toBeUndefined();
    const five = row(store, posts, { group: 'five' });
    store.dispatch(
      cache.setResponse(movePost, { group: 'five', id: '10' }, { group: 'ten' }, { id: '10', title: 'Ten' }),
    );
    expect(row(store, posts, { group: 'five' })).toBe(five);
    expect(row(store, posts, { group: 'ten' })).toEqual(['2', '10']);
    expect(slice(store).entities.Post!['10']).toEqual({ id: '10', title: 'Ten' });
  });

  function articleStore() {
    const { cache, store } = makeStore();
    seed(store, cache, articles, [
      [{ group: 'react' }, [article('1', 'react'), article('2', 'react')]],
      [{ group: 'vue' }, [article('3', 'vue')]],
      [{ group: 'vue', orderBy: 'title' }, [article('3', 'vue')]],
      [{}, [article('1', 'react'), article('2', 'react'), article('3', 'vue')]],
    ]);
    return { cache, store };
  }

  test('old values come from the stored row, new ones from the item: react → vue', () => {
    const { cache, store } = articleStore();
    const all = row(store, articles, {});
    store.dispatch(cache.set(articles.move, {}, { id: '1', group: 'vue' }));
    expect(row(store, articles, { group: 'react' })).toEqual(['2']);
    expect(row(store, articles, { group: 'vue' })).toEqual(['3', '1']);
    expect(row(store, articles, { group: 'vue', orderBy: 'title' })).toEqual(['3', '1']);
    expect(row(store, articles, {})).toBe(all);
    expect(slice(store).entities.Article!['1']).toEqual({ id: '1', title: 'Article 1', group: 'vue' });
  });

  test('new values spread over the stored row: a list filtered on two keys keeps the unchanged one', () => {
    const { cache, store } = makeStore();
    const stored = { id: '1', title: 'T', group: 'react', author: '2' };
    seed(store, cache, articles, [
      [{ group: 'react', author: '2' }, [stored]],
      [{ group: 'vue', author: '2' }, []],
      [{ group: 'vue', author: '3' }, []],
    ]);
    const vue3 = row(store, articles, { group: 'vue', author: '3' });
    store.dispatch(cache.set(articles.move, {}, { id: '1', group: 'vue' }));
    expect(row(store, articles, { group: 'react', author: '2' })).toEqual([]);
    expect(row(store, articles, { group: 'vue', author: '2' })).toEqual(['1']);
    expect(row(store, articles, { group: 'vue', author: '3' })).toBe(vue3);
  });

  test('the stored row is found through process and pk, and new values are the processed item', () => {
    class Doc extends Entity {
      slug = '';
      group = '';
      static override key = 'Doc';
      static override pk(value: { slug?: string }) {
        return value.slug;
      }
      static override process(input: { category?: string; group?: string; slug?: string }) {
        const { category, ...rest } = input;
        return category === undefined ? { ...rest } : { ...rest, group: category };
      }
    }
    const docs = new Collection([Doc]);
    const { cache, store } = makeStore();
    seed(store, cache, docs, [
      [{ group: 'react' }, [{ slug: 'intro', group: 'react' }]],
      [{ group: 'vue' }, []],
    ]);
    store.dispatch(cache.set(docs.move, {}, { slug: 'intro', category: 'vue' }));
    expect(row(store, docs, { group: 'react' })).toEqual([]);
    expect(row(store, docs, { group: 'vue' })).toEqual(['intro']);
    expect(slice(store).entities.Doc!['intro']).toEqual({ slug: 'intro', group: 'vue' });
  });

  test('polymorphic members move by { id, schema }: the user leaves, the group of the same id stays', () => {
    const { cache, store } = makeStore();
    seed(store, cache, members, [
      [
        { team: 'a' },
        [
          { id: '1', type: 'users', name: 'Ann' },
          { id: '1', type: 'groups', title: 'G' },
        ],
      ],
      [{ team: 'b' }, []],
    ]);
    store.dispatch(cache.set(members.move, { team: 'a' }, { team: 'b' }, { id: '1', type: 'users' }));
    expect(row(store, members, { team: 'a' })).toEqual([{ id: '1', schema: 'groups' }]);
    expect(row(store, members, { team: 'b' })).toEqual([{ id: '1', schema: 'users' }]);
  });

  test('a move to the group the item is already in changes no list', () => {
    const { cache, store } = articleStore();
    const table = slice(store).entities['[Article]'];
    store.dispatch(cache.set(articles.move, {}, { id: '1', group: 'react', title: 'Retitled' }));
    expect(slice(store).entities['[Article]']).toBe(table);
    expect(slice(store).entities.Article!['1']).toEqual({ id: '1', title: 'Retitled', group: 'react' });
  });

  test('a list of items moves each one, appended in order', () => {
    const { cache, store } = articleStore();
    store.dispatch(
      cache.set(articles.move, {}, [
        { id: '2', group: 'vue' },
        { id: '1', group: 'vue' },
      ]),
    );
    expect(row(store, articles, { group: 'react' })).toEqual([]);
    expect(row(store, articles, { group: 'vue' })).toEqual(['3', '2', '1']);
  });

  test('on a Values collection the new values come from the last arg; the entry leaves and joins by ref', () => {
    const byGroup = new Collection(new Values(Article));
    const { cache, store } = makeStore();
    seed(store, cache, byGroup, [
      [{ group: 'react' }, { a: article('1', 'react'), b: article('2', 'react') }],
      [{ group: 'vue' }, {}],
    ]);
    store.dispatch(cache.set(byGroup.move, { group: 'react' }, { group: 'vue' }, { id: '1' }));
    expect(snapshot(row(store, byGroup, { group: 'react' }))).toEqual({ b: '2' });
    expect(snapshot(row(store, byGroup, { group: 'vue' }))).toEqual({ 1: '1' });
  });

  test('a moved item needs a usable pk: MISSING_PK, store unchanged', () => {
    const { cache, store } = articleStore();
    expectRejected(store, () => store.dispatch(cache.set(articles.move, {}, { group: 'vue' })), ErrorCode.MISSING_PK);
  });
});

describe('placeholder pks for created items', () => {
  function reactStore() {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [[{ group: 'react' }, [post('1')]]]);
    return { cache, store };
  }

  test('a pushed item without an id is stored under a placeholder pk and appended', () => {
    const { cache, store } = reactStore();
    const createPost = endpoint('POST /:group/posts', posts.push);
    store.dispatch(cache.setResponse(createPost, { group: 'react' }, {}, { title: 'Draft' }));
    const list = row(store, posts, { group: 'react' }) as string[];
    expect(list).toHaveLength(2);
    const placeholder = list[1]!;
    expect(placeholder.startsWith('placeholder:')).toBe(true);
    expect(slice(store).entities.Post![placeholder]).toEqual({ title: 'Draft' });
    expect(slice(store).endpoints[createPost.key({ group: 'react' }, {})]).toBe(placeholder);
    expect(titles(cache.selectQuery(store.getState(), posts, { group: 'react' }))).toEqual(['Post 1', 'Draft']);
  });

  test('each item, in one call or across calls, gets its own placeholder; unusable ids count as missing', () => {
    const { cache, store } = reactStore();
    store.dispatch(cache.set(posts.push, { group: 'react' }, [{ title: 'A' }, { id: '', title: 'B' }]));
    store.dispatch(cache.set(posts.unshift, { group: 'react' }, { id: 'undefined', title: 'C' }));
    const list = row(store, posts, { group: 'react' }) as string[];
    const placeholders = [list[0]!, list[2]!, list[3]!];
    expect(list[1]).toBe('1');
    for (const pk of placeholders) expect(pk.startsWith('placeholder:')).toBe(true);
    expect(new Set(placeholders).size).toBe(3);
    expect(titles(cache.selectQuery(store.getState(), posts, { group: 'react' }))).toEqual(['C', 'Post 1', 'A', 'B']);
  });

  test('a nested entity without a pk inside a pushed item still throws MISSING_PK', () => {
    const { cache, store } = reactStore();
    const error = expectRejected(
      store,
      () =>
        store.dispatch(cache.set(posts.push, { group: 'react' }, { title: 'Draft', author: { name: 'Anonymous' } })),
      ErrorCode.MISSING_PK,
    );
    expect(error.message).toContain('User');
  });

  test('a plain entity write without an id still throws MISSING_PK', () => {
    const { cache, store } = reactStore();
    expectRejected(store, () => store.dispatch(cache.set(Post, { title: 'No id' })), ErrorCode.MISSING_PK);
  });
});

describe('read identity after an op', () => {
  test('a push to react leaves the vue read the same array and reuses untouched members', () => {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [
      [{ group: 'react' }, [post('1'), post('2')]],
      [{ group: 'vue' }, [post('3')]],
    ]);
    const vueBefore = cache.selectQuery(store.getState(), posts, { group: 'vue' });
    const reactBefore = cache.selectQuery(store.getState(), posts, { group: 'react' })!;
    store.dispatch(cache.set(posts.push, { group: 'react' }, post('9')));
    const vueAfter = cache.selectQuery(store.getState(), posts, { group: 'vue' });
    const reactAfter = cache.selectQuery(store.getState(), posts, { group: 'react' })!;
    expect(vueAfter).toBe(vueBefore);
    expect(reactAfter).not.toBe(reactBefore);
    expect(titles(reactAfter)).toEqual(['Post 1', 'Post 2', 'Post 9']);
    expect(reactAfter[0]).toBe(reactBefore[0]);
    expect(reactAfter[1]).toBe(reactBefore[1]);
  });

  test('a no-op remove keeps the read result the same array', () => {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [[{ group: 'react' }, [post('1')]]]);
    const before = cache.selectQuery(store.getState(), posts, { group: 'react' });
    store.dispatch(cache.set(posts.remove, { group: 'react' }, { id: '99', title: 'Elsewhere' }));
    expect(cache.selectQuery(store.getState(), posts, { group: 'react' })).toBe(before);
  });
});

describe('bad input', () => {
  function reactStore() {
    const { cache, store } = makeStore();
    seed(store, cache, posts, [[{ group: 'react' }, [post('1')]]]);
    return { cache, store };
  }

  test.each<[string, unknown]>([
    ['a number', 5],
    ['a string', 'hello'],
    ['a list holding a number', [post('2'), 5]],
    ['a list holding a string', ['2']],
  ])('push of %s throws UNEXPECTED_INPUT and writes nothing', (_name, value) => {
    const { cache, store } = reactStore();
    expectRejected(
      store,
      () => store.dispatch(cache.set(posts.push, { group: 'react' }, value)),
      ErrorCode.UNEXPECTED_INPUT,
    );
  });

  test('a pushed string that parses as JSON says so', () => {
    const { cache, store } = reactStore();
    const error = expectRejected(
      store,
      () => store.dispatch(cache.set(posts.unshift, { group: 'react' }, '{"id":"2"}')),
      ErrorCode.UNEXPECTED_INPUT,
    );
    expect(error.message).toContain('parsed as JSON');
  });

  test.each<[string, unknown]>([
    ['a pk string', '1'],
    ['a list holding a pk', ['1']],
  ])('move of %s (not an object) throws UNEXPECTED_INPUT and writes nothing', (_name, value) => {
    const { cache, store } = reactStore();
    expectRejected(
      store,
      () => store.dispatch(cache.set(posts.move, { group: 'react' }, value)),
      ErrorCode.UNEXPECTED_INPUT,
    );
  });

  test('assign of a list throws UNEXPECTED_INPUT and writes nothing', () => {
    const { cache, store } = makeStore();
    seed(store, cache, usersByKey, [[{}, { x: { id: '1', name: 'A' } }]]);
    expectRejected(
      store,
      () => store.dispatch(cache.set(usersByKey.assign, {}, [{ id: '2' }])),
      ErrorCode.UNEXPECTED_INPUT,
    );
  });

  test('a later bad item rejects the whole push, earlier items included', () => {
    const { cache, store } = reactStore();
    expectRejected(
      store,
      () =>
        store.dispatch(cache.set(posts.push, { group: 'react' }, [post('2'), { id: '3', author: { name: 'no id' } }])),
      ErrorCode.MISSING_PK,
    );
  });

  test('through setResponse the error is stored in meta and no row changes', () => {
    const { cache, store } = reactStore();
    const createPost = endpoint('POST /:group/posts', posts.push);
    const entities = slice(store).entities;
    store.dispatch(cache.setResponse(createPost, { group: 'react' }, {}, 42));
    const state = slice(store);
    expect(state.entities).toBe(entities);
    expect(state.meta[createPost.key({ group: 'react' }, {})]!.error).toMatchObject({
      code: ErrorCode.UNEXPECTED_INPUT,
    });
    expect(state.endpoints[createPost.key({ group: 'react' }, {})]).toBeUndefined();
  });
});

describe('unknown polymorphic types', () => {
  test('an unknown type pushed into a [Union] collection is kept raw in the list and warned once', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { cache, store } = makeStore();
    seed(store, cache, members, [[{}, [{ id: '1', type: 'users', name: 'Ann' }]]]);
    const robot = { id: '7', type: 'robots', model: 'R2' };
    store.dispatch(cache.set(members.push, {}, robot));
    store.dispatch(cache.set(members.push, {}, robot));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain('robots');
    expect(snapshot(row(store, members, {}))).toEqual([{ id: '1', schema: 'users' }, robot, robot]);
    expect(Object.keys(slice(store).entities).sort()).toEqual(['User', '[User;Group]']);
    const read = cache.selectQuery(store.getState(), members, {}) as unknown[];
    expect(read[1]).toEqual(robot);
  });

  test('a known type pushed into a [Union] collection gets an { id, schema } ref and its own table', () => {
    const { cache, store } = makeStore();
    seed(store, cache, members, [[{}, []]]);
    store.dispatch(
      cache.set(members.push, {}, [
        { id: '5', type: 'groups', title: 'Team' },
        { type: 'users', name: 'New' },
      ]),
    );
    const list = row(store, members, {}) as Array<{ id: string; schema: string }>;
    expect(list[0]).toEqual({ id: '5', schema: 'groups' });
    expect(list[1]!.schema).toBe('users');
    expect(list[1]!.id.startsWith('placeholder:')).toBe(true);
    expect(slice(store).entities.Group!['5']).toEqual({ id: '5', type: 'groups', title: 'Team' });
  });
});

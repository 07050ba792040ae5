/**
 * normalize() output (see docs/architecture.md, "The flow"): Immer-format patches that, applied with
 * Immer's own applyPatches to a JSON copy of the slice, give the store's new state; inverse patches
 * that give the old state back; and no side effects on the store.
 */
import { applyPatches, enablePatches, type Patch as ImmerPatch } from 'immer';
import { All, Entity, Invalidate, normalize, type CacheState, type Patch } from '../../src/index';
import { Post, User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';
import { endpoint, makeRecordingStore } from '../fixtures/writes';

enablePatches();

afterEach(() => {
  jest.restoreAllMocks();
});

const OPTIONS = { maxEntityDepth: 64 };
const getPosts = endpoint('GET /posts', [Post]);
const getPost = endpoint('GET /post', Post);
const allUsers = endpoint('GET /users/all', new All(User));
const deletePost = endpoint('DELETE /post', new Invalidate(Post));

const postInput = (title = 'Hello') => ({
  id: 'p1',
  title,
  author: { id: 'u1', name: 'Ann' },
  comments: [
    { id: 'c1', body: 'one', author: { id: 'u2', name: 'Bob' } },
    { id: 'c2', body: 'two', author: 'u1' },
  ],
});

function apply(base: unknown, patches: readonly Patch[]): unknown {
  return applyPatches(base as object, patches as unknown as ImmerPatch[]);
}

function expectImmerFormat(patches: readonly Patch[]): void {
  for (const patch of patches) {
    expect(['add', 'replace', 'remove']).toContain(patch.op);
    expect(Array.isArray(patch.path)).toBe(true);
    expect(patch.path.length).toBeGreaterThan(0);
    for (const segment of patch.path) expect(['string', 'number']).toContain(typeof segment);
    if (patch.op !== 'remove') expect(Object.prototype.hasOwnProperty.call(patch, 'value')).toBe(true);
    expect(Object.keys(patch).every(key => key === 'op' || key === 'path' || key === 'value')).toBe(true);
  }
}

describe('the result and the patches', () => {
  test('a first write: Immer-format patches that add the rows and their meta; the result is the root ref', () => {
    const { store } = makeStore();
    const state = store.getState().cache;
    const meta = { fetchedAt: 10, date: 11, expiresAt: 60_011 };
    const { result, patches, inversePatches } = normalize(Post, postInput(), [], state, meta, OPTIONS);
    expect(result).toBe('p1');
    expect(patches.length).toBeGreaterThan(0);
    expectImmerFormat(patches);
    expectImmerFormat(inversePatches);
    const next = apply(snapshot(state), patches) as CacheState;
    expect(next.entities).toEqual({
      Post: { p1: { id: 'p1', title: 'Hello', author: 'u1', comments: ['c1', 'c2'] } },
      Comment: { c1: { id: 'c1', body: 'one', author: 'u2' }, c2: { id: 'c2', body: 'two', author: 'u1' } },
      User: { u1: { id: 'u1', name: 'Ann' }, u2: { id: 'u2', name: 'Bob' } },
    });
    expect(next.entitiesMeta).toEqual({
      Post: { p1: meta },
      Comment: { c1: meta, c2: meta },
      User: { u1: meta, u2: meta },
    });
    expect(next.endpoints).toEqual({});
    expect(next.meta).toEqual({});
    expect(apply(next, inversePatches)).toEqual(snapshot(state));
  });

  test('normalize() is pure: the state it is given is not changed in any way', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Post, postInput()));
    const before = store.getState().cache;
    const copy = snapshot(before);
    normalize(Post, postInput('Changed'), [], before, { fetchedAt: 1, date: 1, expiresAt: 2 }, OPTIONS);
    expect(snapshot(before)).toEqual(copy);
  });

  test('normalize() does not mutate its input', () => {
    const { store } = makeStore();
    const input = postInput();
    const copy = JSON.parse(JSON.stringify(input));
    normalize(Post, input, [], store.getState().cache, { fetchedAt: 1, date: 1, expiresAt: 2 }, OPTIONS);
    expect(input).toEqual(copy);
    expect(input.author).toEqual({ id: 'u1', name: 'Ann' });
  });

  test('an All schema gives an undefined result', () => {
    const { store } = makeStore();
    const { result, patches } = normalize(
      new All(User),
      [{ id: '1', name: 'A' }],
      [],
      store.getState().cache,
      { fetchedAt: 1, date: 1, expiresAt: 2 },
      OPTIONS,
    );
    expect(result).toBeUndefined();
    const next = apply(snapshot(store.getState().cache), patches) as CacheState;
    expect(next.entities).toEqual({ User: { 1: { id: '1', name: 'A' } } });
  });

  test('a changed row: the patches change it and the inverse patches restore the stored row', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(User, { id: 'u1', name: 'Ann' }));
    store.dispatch(cache.set(User, { id: 'u2', name: 'Bob' }));
    const state = store.getState().cache;
    const meta = { fetchedAt: Date.now() + 1, date: 1, expiresAt: 2 };
    const { patches, inversePatches } = normalize(User, { id: 'u1', name: 'Anna' }, [], state, meta, OPTIONS);
    const next = apply(snapshot(state), patches) as CacheState;
    expect(next.entities.User).toEqual({ u1: { id: 'u1', name: 'Anna' }, u2: { id: 'u2', name: 'Bob' } });
    expect(next.entitiesMeta.User!['u1']).toEqual(meta);
    expect(next.entitiesMeta.User!['u2']).toEqual(snapshot(state.entitiesMeta.User!['u2']));
    expect(apply(next, inversePatches)).toEqual(snapshot(state));
  });

  test('the same patches as the store’s own write, for the same start stamp', () => {
    jest.spyOn(Date, 'now').mockReturnValue(50_000);
    const { cache, store, actions } = makeRecordingStore();
    store.dispatch(cache.set(Post, postInput()));
    const state = store.getState().cache;
    // The second write in the same millisecond starts after the first: its stamp is one later.
    const meta = { fetchedAt: 50_001, date: 50_000, expiresAt: 110_000 };
    const direct = normalize(Post, postInput('Second'), [], state, meta, OPTIONS);
    store.dispatch(cache.set(Post, postInput('Second')));
    const action = actions.at(-1)!;
    expect(action.payload.patches).toEqual(direct.patches);
    expect(action.payload.inversePatches).toEqual(direct.inversePatches);
  });
});

describe('one write is one action carrying patches and inverse patches', () => {
  test('cache.set dispatches exactly one cache/set action', () => {
    const { cache, store, actions } = makeRecordingStore();
    store.dispatch(cache.set([Post], [postInput(), { ...postInput(), id: 'p2' }]));
    expect(actions).toHaveLength(1);
    expect(actions[0]!.type).toBe('cache/set');
    expectImmerFormat(actions[0]!.payload.patches);
    expectImmerFormat(actions[0]!.payload.inversePatches);
  });

  test('an identical write keeps every row and table; only the meta of its rows moves forward', () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const { cache, store } = makeRecordingStore();
    store.dispatch(cache.set(User, { id: 'u1', name: 'A' }));
    const state = store.getState().cache;
    store.dispatch(cache.set(User, { id: 'u1', name: 'A' }));
    expect(store.getState().cache.entities).toBe(state.entities);
    expect(store.getState().cache.entitiesMeta.User!['u1']!.fetchedAt).toBe(1_001);
  });
});

describe("Immer's applyPatches reproduces the store's write, and the inverse undoes it", () => {
  type Store = ReturnType<typeof makeRecordingStore>;
  const scenarios: Array<[string, (s: Store) => void, (s: Store) => void]> = [
    [
      'a first write of nested entities',
      () => undefined,
      ({ cache, store }) => store.dispatch(cache.set(Post, postInput())),
    ],
    [
      'a response that updates some rows, adds others, and replaces the endpoint result',
      ({ cache, store }) =>
        store.dispatch(cache.resolve(getPosts, { args: [], response: [postInput()], fetchedAt: 100 })),
      ({ cache, store }) =>
        store.dispatch(
          cache.resolve(getPosts, {
            args: [],
            response: [
              postInput('Renamed'),
              { id: 'p2', title: 'New', author: { id: 'u3', name: 'Cy' }, comments: [] },
            ],
            fetchedAt: 200,
          }),
        ),
    ],
    [
      'a deletion (tombstone) of a stored row',
      ({ cache, store }) => store.dispatch(cache.set(Post, postInput())),
      ({ cache, store }) => store.dispatch(cache.setResponse(deletePost, { id: 'p1' }, { id: 'p1' })),
    ],
    [
      'an older response that only adds fields',
      ({ cache, store }) => store.dispatch(cache.resolve(getPost, { args: [], response: postInput(), fetchedAt: 300 })),
      ({ cache, store }) =>
        store.dispatch(
          cache.resolve(getPost, { args: [], response: { ...postInput('Old'), subtitle: 's' }, fetchedAt: 100 }),
        ),
    ],
    [
      'an identical rewrite (a no-op write: meta only)',
      ({ cache, store }) =>
        store.dispatch(cache.resolve(getPosts, { args: [], response: [postInput()], fetchedAt: 100 })),
      ({ cache, store }) =>
        store.dispatch(cache.resolve(getPosts, { args: [], response: [postInput()], fetchedAt: 200 })),
    ],
    [
      'an All response that creates an empty table and drops an endpoint result',
      ({ cache, store }) =>
        store.dispatch(cache.setResponse(endpoint('GET /users/all', [User]), [{ id: 'u1', name: 'A' }])),
      ({ cache, store }) => store.dispatch(cache.setResponse(allUsers, [])),
    ],
    [
      'a response that fails to normalize (only the error record is written)',
      ({ cache, store }) => store.dispatch(cache.setResponse(getPost, postInput())),
      ({ cache, store }) => store.dispatch(cache.setResponse(getPost, { title: 'no id' })),
    ],
  ];

  test.each(scenarios)('%s', (_name, setup, write) => {
    const recording = makeRecordingStore();
    setup(recording);
    const before = snapshot(recording.store.getState().cache);
    const count = recording.actions.length;
    write(recording);
    expect(recording.actions).toHaveLength(count + 1);
    const { patches, inversePatches } = recording.actions.at(-1)!.payload;
    expect(patches.length).toBeGreaterThan(0);
    expectImmerFormat(patches);
    expectImmerFormat(inversePatches);
    const after = snapshot(recording.store.getState().cache);
    expect(after).not.toEqual(before);
    expect(apply(before, patches)).toEqual(after);
    expect(apply(after, inversePatches)).toEqual(before);
  });

  test('patches returned by normalize() itself, applied with Immer, equal the state cache.set leaves', () => {
    jest.spyOn(Date, 'now').mockReturnValue(7_000);
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Post, postInput()));
    const state: CacheState = store.getState().cache;
    const before = snapshot(state);
    const changed = { ...postInput('Changed'), author: { id: 'u1', name: 'Ann B.' } };
    // The second write of the millisecond: its start stamp is one after the first's.
    const { patches, inversePatches } = normalize(
      Post,
      changed,
      [],
      state,
      { fetchedAt: 7_001, date: 7_000, expiresAt: 67_000 },
      OPTIONS,
    );
    store.dispatch(cache.set(Post, changed));
    const after = snapshot(store.getState().cache);
    expect(after).not.toEqual(before);
    expect(apply(before, patches)).toEqual(after);
    expect(apply(after, inversePatches)).toEqual(before);
  });
});

describe('maxEntityDepth option', () => {
  class Chain extends Entity {
    id = '';
    static override key = 'NChain';
  }
  Chain.schema = { next: Chain };
  const chain = (depth: number): Record<string, unknown> => {
    let node: Record<string, unknown> = { id: String(depth) };
    for (let i = depth - 1; i >= 1; i--) node = { id: String(i), next: node };
    return node;
  };

  test('entities nested exactly maxEntityDepth deep are accepted (the root has depth 1)', () => {
    const { store } = makeStore();
    const { result, patches } = normalize(
      Chain,
      chain(3),
      [],
      store.getState().cache,
      { fetchedAt: 1, date: 1, expiresAt: 2 },
      { maxEntityDepth: 3 },
    );
    expect(result).toBe('1');
    const next = apply(snapshot(store.getState().cache), patches) as CacheState;
    expect(Object.keys(next.entities.NChain!).sort()).toEqual(['1', '2', '3']);
  });

  test('one level deeper throws MAX_DEPTH_EXCEEDED', () => {
    const { store } = makeStore();
    expect(() =>
      normalize(
        Chain,
        chain(4),
        [],
        store.getState().cache,
        { fetchedAt: 1, date: 1, expiresAt: 2 },
        { maxEntityDepth: 3 },
      ),
    ).toThrow(expect.objectContaining({ code: 'MAX_DEPTH_EXCEEDED', status: 400 }));
  });
});

describe('the exported normalize, called as the docs show it', () => {
  test('normalize(schema, input, args, slice) works: meta and options default, a restored slice reads as the live one', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Post, postInput()));
    const live = store.getState().cache as CacheState;
    now.mockReturnValue(5_000);
    for (const slice of [live, snapshot(live) as CacheState]) {
      const { result, patches } = normalize(Post, postInput('Changed'), [], slice);
      expect(result).toBe('p1');
      expect(patches).toContainEqual(expect.objectContaining({ path: ['entities', 'Post', 'p1'] }));
      expect(patches).toContainEqual(
        expect.objectContaining({ value: { fetchedAt: 5_000, date: 5_000, expiresAt: 65_000 } }),
      );
    }
    // A restored slice: a row named like a prototype key is a new row, not Object.prototype's.
    const restored = snapshot(live) as CacheState;
    expect(normalize(User, { id: 'constructor', name: 'C' }, [], restored).patches[0]).toMatchObject({ op: 'add' });
  });

  test('what it cannot use is a coded error naming the fix', () => {
    const { store } = makeStore();
    const slice = store.getState().cache as CacheState;
    const code = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as { code?: string }).code;
      }
      return 'no throw';
    };
    expect(code(() => normalize(Post, postInput(), [], store.getState() as never))).toBe('CACHE_NOT_MOUNTED');
    expect(code(() => normalize(Post, postInput(), [], undefined as never))).toBe('CACHE_NOT_MOUNTED');
    expect(code(() => normalize(Post, postInput(), {} as never, slice))).toBe('INVALID_OPTION');
    expect(code(() => normalize(Post, postInput(), [], slice, {} as never))).toBe('INVALID_OPTION');
    expect(code(() => normalize(Post, postInput(), [], slice, undefined, { maxEntityDepth: NaN }))).toBe(
      'INVALID_OPTION',
    );
  });
});

/**
 * Draft updaters (docs/store.md, "Updaters"): `cache.set(schema, ...args, updater)` drafts the
 * cached value with Immer; the write holds only the rows the updater changed.
 */
import { Collection, Entity, Values, type CacheState } from '../../src/index';
import { jsonProblems, makeRecordingStore } from '../fixtures/recording';
import { snapshot } from '../fixtures/store';

class Author extends Entity {
  id = '';
  name = '';
  static override key = 'DraftAuthor';
}

class Post extends Entity {
  id = '';
  title = '';
  tags: string[] = [];
  author = Author.fromJS();
  static override key = 'DraftPost';
  static override schema = { author: Author };
  get shout(): string {
    return this.title.toUpperCase();
  }
}

const posts = new Collection([Post]);
const byId = new Collection(new Values(Post), { argsKey: () => ({ map: true }) });

function setup() {
  const recording = makeRecordingStore();
  const { cache, store } = recording;
  const items = Array.from({ length: 10 }, (_, i) => ({
    id: String(i),
    title: `post ${i}`,
    tags: ['a'],
    author: { id: 'u1', name: 'Ann' },
  }));
  store.dispatch(cache.set(posts, {}, items));
  store.dispatch(cache.set(byId, { map: true }, Object.fromEntries(items.map(item => [item.id, item]))));
  recording.actions.length = 0;
  return { ...recording, state: () => recording.slice() as CacheState };
}

describe('draft updaters', () => {
  test('an entity drafted in place: one row and its meta are written, as plain data', () => {
    const { cache, store, actions, state } = setup();
    const before = state();
    store.dispatch(
      cache.set(Post, { id: '3' }, (draft: Post) => {
        // The draft keeps its class (methods and getters work) and is mutable.
        expect(draft.shout).toBe('POST 3');
        draft.title = 'edited';
        draft.tags.push('b');
      }),
    );
    expect(actions).toHaveLength(1);
    const paths = (actions[0]!.payload as { patches: { path: string[] }[] }).patches.map(p => p.path.join('/'));
    expect(paths.sort()).toEqual(['entities/DraftPost/3', 'entitiesMeta/DraftPost/3']);
    const after = state();
    expect(after.entities.DraftPost!['3']).toEqual({ id: '3', title: 'edited', tags: ['a', 'b'], author: 'u1' });
    expect(jsonProblems(snapshot(after.entities.DraftPost!['3']))).toEqual([]);
    expect(Object.getPrototypeOf(after.entities.DraftPost!['3'])).toBe(Object.prototype);
    // Untouched rows (and their tables' other rows) keep their identity.
    expect(after.entities.DraftPost!['2']).toBe(before.entities.DraftPost!['2']);
    expect(after.entities.DraftAuthor).toBe(before.entities.DraftAuthor);
    const read = cache.selectQuery(store.getState(), Post, { id: '3' })!;
    expect(read).toBeInstanceOf(Post);
    expect(read.title).toBe('edited');
  });

  test('a list drafted in place: the changed post only, no new expiry for the others', () => {
    const { cache, store, actions, state } = setup();
    const before = state();
    store.dispatch(
      cache.set(posts, {}, (draft: Post[]) => {
        draft[7]!.title = 'seven';
      }),
    );
    const patches = (actions[0]!.payload as { patches: { path: string[] }[] }).patches;
    expect(patches.map(p => p.path.join('/')).sort()).toEqual(['entities/DraftPost/7', 'entitiesMeta/DraftPost/7']);
    expect(state().entities['[DraftPost]']!['{}']).toBe(before.entities['[DraftPost]']!['{}']);
    expect(state().entitiesMeta.DraftPost!['6']).toBe(before.entitiesMeta.DraftPost!['6']);
  });

  test('one post of a long list: still one row and its meta (not the meta table)', () => {
    const { cache, store, actions, state } = setup();
    const many = Array.from({ length: 200 }, (_, i) => ({ id: `m${i}`, title: `m ${i}`, tags: [], author: 'u1' }));
    store.dispatch(cache.set(posts, { long: true }, many));
    actions.length = 0;
    const before = state();
    store.dispatch(
      cache.set(posts, { long: true }, (draft: Post[]) => {
        draft[150]!.title = 'changed';
      }),
    );
    const payload = actions[0]!.payload as { patches: { path: string[] }[]; inversePatches: { path: string[] }[] };
    expect(payload.patches.map(p => p.path.join('/')).sort()).toEqual([
      'entities/DraftPost/m150',
      'entitiesMeta/DraftPost/m150',
    ]);
    expect(payload.inversePatches.map(p => p.path.join('/')).sort()).toEqual([
      'entities/DraftPost/m150',
      'entitiesMeta/DraftPost/m150',
    ]);
    expect(state().entitiesMeta.DraftPost!['m149']).toBe(before.entitiesMeta.DraftPost!['m149']);
    expect(JSON.stringify(payload).length).toBeLessThan(1_000);
  });

  test('a list pushed to and spliced in a draft: item patches on the list row', () => {
    const { cache, store, actions, state } = setup();
    store.dispatch(
      cache.set(posts, {}, (draft: Post[]) => {
        draft.splice(0, 1);
        draft.push(Post.fromJS({ id: '10', title: 'new', author: { id: 'u1', name: 'Ann' } } as never));
      }),
    );
    expect(state().entities['[DraftPost]']!['{}']).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    const listPatches = (actions[0]!.payload as { patches: { path: (string | number)[] }[] }).patches.filter(
      p => p.path[1] === '[DraftPost]',
    );
    expect(listPatches.length).toBeGreaterThan(0);
    expect(state().entities.DraftPost!['10']).toMatchObject({ id: '10', title: 'new', author: 'u1' });
  });

  test('a Values map drafted in place, and an updater that returns a new value', () => {
    const { cache, store, state } = setup();
    store.dispatch(
      cache.set(byId, { map: true }, (draft: Record<string, Post>) => {
        draft['4']!.title = 'four';
      }),
    );
    expect(state().entities.DraftPost!['4']).toMatchObject({ title: 'four' });
    store.dispatch(cache.set(Post, { id: '4' }, (post: Post) => ({ ...post, title: 'returned' })));
    expect(cache.selectQuery(store.getState(), Post, { id: '4' })!.title).toBe('returned');
  });

  test('a `__proto__` key set in a draft is data, never the prototype of the draft object', () => {
    const { cache, store, state } = setup();
    store.dispatch(
      cache.set(Post, { id: '3' }, (draft: Post & { extra?: Record<string, unknown> }) => {
        draft.extra = {};
        const proto = Object.getPrototypeOf(draft.extra) as unknown;
        draft.extra['__proto__'] = { odd: true };
        expect(Object.getPrototypeOf(draft.extra)).toBe(proto);
        expect(Object.keys(draft.extra)).toEqual(['__proto__']);
      }),
    );
    const row = state().entities.DraftPost!['3'] as unknown as { extra: object };
    expect(Object.keys(row.extra)).toEqual(['__proto__']);
    expect(JSON.stringify(row.extra)).toBe('{"__proto__":{"odd":true}}');
  });

  test('an updater that changes nothing writes nothing; nothing cached: not called', () => {
    const { cache, store, actions } = setup();
    store.dispatch(cache.set(Post, { id: '3' }, () => undefined));
    store.dispatch(
      cache.set(Post, { id: '3' }, (draft: Post) => {
        draft.title = 'post 3';
      }),
    );
    const updater = jest.fn();
    store.dispatch(cache.set(Post, { id: 'missing' }, updater));
    expect(updater).not.toHaveBeenCalled();
    expect(actions).toEqual([]);
  });

  test('an updater that throws, or writes bad data, leaves the store exactly as it was', () => {
    const { cache, store, state } = setup();
    const before = state();
    expect(() =>
      store.dispatch(
        cache.set(Post, { id: '3' }, () => {
          throw new Error('no');
        }),
      ),
    ).toThrow('no');
    expect(() =>
      store.dispatch(
        cache.set(Post, { id: '3' }, (draft: Post) => {
          (draft as unknown as { when: unknown }).when = () => 1;
        }),
      ),
    ).toThrow();
    expect(state()).toBe(before);
  });

  test('an async updater is refused with UNEXPECTED_INPUT, and writes nothing', async () => {
    const { cache, store, actions, state } = setup();
    const before = state();
    let later: unknown;
    expect(() =>
      store.dispatch(
        cache.set(Post, { id: '3' }, async (draft: Post) => {
          draft.title = 'before the await';
          await Promise.resolve();
          try {
            draft.title = 'after the await';
          } catch (error) {
            later = error;
          }
        }),
      ),
    ).toThrow(
      expect.objectContaining({ code: 'UNEXPECTED_INPUT', message: expect.stringMatching(/returned a promise/) }),
    );
    await new Promise(resolve => setImmediate(resolve));
    // The draft was revoked when the updater returned: the rest of it changed nothing.
    expect(later).toBeInstanceOf(TypeError);
    expect(actions).toEqual([]);
    expect(state()).toBe(before);
  });
});

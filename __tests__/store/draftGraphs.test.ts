/**
 * Draft updaters on graphs (docs/store.md, "Updaters on graphs"): what a read shares stays shared
 * through the draft (one draft per object, not per path), a cycle is the same draft all the way
 * round, each change lands in its own row, and drafting and writing back cost the distinct
 * objects, not the paths to them (the depths here would not finish otherwise).
 */
import { Collection, Entity, type CacheState } from '../../src/index';
import { makeRecordingStore } from '../fixtures/recording';

class Person extends Entity {
  id = '';
  name = '';
  best: Person | null = null;
  static override key = 'DGPerson';
}
Person.schema = { best: Person };

/**
 * The same shape with a merge of its own, one the default merge cannot stand in for: a row
 * replaces what is stored whole. Its repeats are written whole, as a response's are; written as
 * their own fields only (what the default merge allows), a later repeat would replace the full
 * row and drop its refs.
 */
class Merged extends Entity {
  id = '';
  name = '';
  best: Merged | null = null;
  rival: Merged | null = null;
  static override key = 'DGMerged';
  static override merge(existing: object, incoming: object): object {
    return { ...incoming };
  }
}
Merged.schema = { best: Merged, rival: Merged };

class Writer extends Entity {
  id = '';
  name = '';
  posts: Article[] = [];
  static override key = 'DGWriter';
}
class Article extends Entity {
  id = '';
  title = '';
  author: Writer | null = null;
  static override key = 'DGArticle';
}
Writer.schema = { posts: [Article] };
Article.schema = { author: Writer };
const articles = new Collection([Article], { argsKey: () => ({}) });

/** Counts the pks the write computes: once per entity it walks. */
let pks = 0;
class GNode extends Entity {
  id = '';
  n = 0;
  a: GNode | null = null;
  b: GNode | null = null;
  back: GNode | null = null;
  static override key = 'DGNode';
  override pk(): string {
    pks++;
    return this.id;
  }
}
GNode.schema = { a: GNode, b: GNode, back: GNode };

function setup() {
  const recording = makeRecordingStore();
  return { ...recording, state: () => recording.slice() as CacheState };
}

/** The rows and metas one recorded action patched. */
function patchedPaths(action: object): string[] {
  return ((action as { payload?: unknown }).payload as { patches: { path: (string | number)[] }[] }).patches
    .map(p => p.path.join('/'))
    .sort();
}

describe('cycles', () => {
  test('a cycle is one draft all the way round, and each change lands in its row', () => {
    const { cache, store, actions, state } = setup();
    store.dispatch(cache.set(Person, { id: '1', name: 'Ann', best: { id: '2', name: 'Bob', best: '1' } }));
    actions.length = 0;
    store.dispatch(
      cache.set(Person, { id: '1' }, (draft: Person) => {
        expect(draft.best!.best).toBe(draft);
        expect(draft).toBeInstanceOf(Person);
        draft.best!.best!.name = 'Ann B';
        expect(draft.name).toBe('Ann B');
        draft.best!.name = 'Bob B';
      }),
    );
    expect(actions).toHaveLength(1);
    expect(patchedPaths(actions[0]!)).toEqual([
      'entities/DGPerson/1',
      'entities/DGPerson/2',
      'entitiesMeta/DGPerson/1',
      'entitiesMeta/DGPerson/2',
    ]);
    expect({ ...state().entities.DGPerson }).toEqual({
      1: { id: '1', name: 'Ann B', best: '2' },
      2: { id: '2', name: 'Bob B', best: '1' },
    });
    const read = cache.selectQuery(store.getState(), Person, { id: '1' })!;
    expect(read.best!.best).toBe(read);
    expect(read.best!.name).toBe('Bob B');
  });

  test('a ref moved inside a cycle, and a change of one row only', () => {
    const { cache, store, actions, state } = setup();
    store.dispatch(cache.set(Person, { id: '1', name: 'Ann', best: { id: '2', name: 'Bob', best: '1' } }));
    actions.length = 0;
    store.dispatch(
      cache.set(Person, { id: '2' }, (draft: Person) => {
        // Bob's best is now Bob himself; Ann still points at Bob.
        draft.best = draft;
      }),
    );
    expect(patchedPaths(actions[0]!)).toEqual(['entities/DGPerson/2', 'entitiesMeta/DGPerson/2']);
    expect(state().entities.DGPerson!['2']).toEqual({ id: '2', name: 'Bob', best: '2' });
    const ann = cache.selectQuery(store.getState(), Person, { id: '1' })!;
    expect(ann.best!.best).toBe(ann.best);
  });

  test('a cycle through a list: an article, its author, the author’s articles', () => {
    const { cache, store, state } = setup();
    store.dispatch(
      cache.set(articles, {}, [
        { id: 'a1', title: 'One', author: { id: 'w1', name: 'Wen', posts: ['a1', 'a2'] } },
        { id: 'a2', title: 'Two', author: 'w1' },
      ]),
    );
    store.dispatch(
      cache.set(articles, {}, (draft: Article[]) => {
        expect(draft[0]!.author!.posts[0]).toBe(draft[0]);
        expect(draft[1]!.author).toBe(draft[0]!.author);
        draft[0]!.author!.posts[1]!.title = 'Two, edited';
        expect(draft[1]!.title).toBe('Two, edited');
        draft[1]!.author!.name = 'Wen B';
      }),
    );
    expect(state().entities.DGArticle!.a2).toEqual({ id: 'a2', title: 'Two, edited', author: 'w1' });
    expect(state().entities.DGWriter!.w1).toEqual({ id: 'w1', name: 'Wen B', posts: ['a1', 'a2'] });
    const read = cache.selectQuery(store.getState(), articles, {})!;
    expect(read[0]!.author!.posts[1]).toBe(read[1]);
  });

  test('a class with its own merge: repeats are written whole, and the cycle still closes', () => {
    const { cache, store, state } = setup();
    // Ann's best and rival are both Bob, whose best is Ann: a cycle, and a repeat after Bob's full place.
    store.dispatch(
      cache.set(Merged, { id: '1', name: 'Ann', best: { id: '2', name: 'Bob', best: '1', rival: null }, rival: '2' }),
    );
    store.dispatch(
      cache.set(Merged, { id: '1' }, (draft: Merged) => {
        expect(draft.rival).toBe(draft.best);
        draft.best!.best!.name = 'Ann B';
        draft.best!.name = 'Bob B';
      }),
    );
    expect({ ...state().entities.DGMerged }).toEqual({
      1: { id: '1', name: 'Ann B', best: '2', rival: '2' },
      2: { id: '2', name: 'Bob B', best: '1', rival: null },
    });
    const read = cache.selectQuery(store.getState(), Merged, { id: '1' })!;
    expect(read.best!.best).toBe(read);
    expect(read.rival).toBe(read.best);
  });

  test('a new value returned from a cyclic draft is written, the cycle kept', () => {
    const { cache, store, state } = setup();
    store.dispatch(cache.set(Person, { id: '1', name: 'Ann', best: { id: '2', name: 'Bob', best: '1' } }));
    store.dispatch(cache.set(Person, { id: '2' }, (draft: Person) => ({ ...draft, name: 'Bo' })));
    expect({ ...state().entities.DGPerson }).toEqual({
      1: { id: '1', name: 'Ann', best: '2' },
      2: { id: '2', name: 'Bo', best: '1' },
    });
  });

  test('an updater that throws part way round a cycle leaves the store exactly as it was', () => {
    const { cache, store, actions, state } = setup();
    store.dispatch(cache.set(Person, { id: '1', name: 'Ann', best: { id: '2', name: 'Bob', best: '1' } }));
    actions.length = 0;
    const before = state();
    expect(() =>
      store.dispatch(
        cache.set(Person, { id: '1' }, (draft: Person) => {
          draft.best!.name = 'changed';
          draft.best!.best!.name = 'changed too';
          throw new Error('no');
        }),
      ),
    ).toThrow('no');
    expect(actions).toEqual([]);
    expect(state()).toBe(before);
    // A draft kept past the updater is revoked: it cannot change anything later.
    let kept: Person | undefined;
    store.dispatch(cache.set(Person, { id: '1' }, (draft: Person) => void (kept = draft)));
    expect(() => kept!.name).toThrow(TypeError);
    expect(state()).toBe(before);
  });
});

describe('shared nodes', () => {
  const DEPTH = 30;

  /** Nodes 0 … DEPTH, node i holding node i + 1 as both `a` and `b` (and, with `back`, node 0). */
  function graph(back: boolean) {
    const context = setup();
    for (let i = DEPTH; i >= 0; i--) {
      const next = i < DEPTH ? String(i + 1) : null;
      context.store.dispatch(
        context.cache.set(GNode, { id: String(i), n: i, a: next, b: next, back: back ? '0' : null }),
      );
    }
    context.actions.length = 0;
    return context;
  }

  test.each([false, true])('each node is drafted once and written once (links back to the top: %s)', back => {
    const { cache, store, actions, state } = graph(back);
    const before = state();
    cache.selectQuery(store.getState(), GNode, { id: '0' });
    pks = 0;
    store.dispatch(
      cache.set(GNode, { id: '0' }, (draft: GNode) => {
        expect(draft.a).toBe(draft.b);
        expect(draft.a!.a).toBe(draft.b!.b);
        if (back) expect(draft.a!.a!.back).toBe(draft);
        // Node 4, through one of its 16 paths.
        draft.a!.b!.a!.b!.n = -4;
        expect(draft.b!.a!.b!.a!.n).toBe(-4);
      }),
    );
    // One pk per node written whole, one per other mention: linear in the edges.
    expect(pks).toBeLessThanOrEqual(3 * (DEPTH + 1) + 2);
    expect(actions).toHaveLength(1);
    expect(patchedPaths(actions[0]!)).toEqual(['entities/DGNode/4', 'entitiesMeta/DGNode/4']);
    const after = state();
    expect(after.entities.DGNode!['4']).toMatchObject({ n: -4, a: '5', b: '5' });
    expect(after.entities.DGNode!['3']).toBe(before.entities.DGNode!['3']);
  });

  test('a change at the bottom, made through the deepest path, writes the bottom row only', () => {
    const { cache, store, actions, state } = graph(false);
    store.dispatch(
      cache.set(GNode, { id: '0' }, (draft: GNode) => {
        let node = draft;
        for (let i = 0; i < DEPTH; i++) node = i % 2 ? node.a! : node.b!;
        node.n = -1;
      }),
    );
    expect(patchedPaths(actions[0]!)).toEqual([`entities/DGNode/${DEPTH}`, `entitiesMeta/DGNode/${DEPTH}`]);
    expect(state().entities.DGNode![String(DEPTH)]).toMatchObject({ n: -1 });
  });
});

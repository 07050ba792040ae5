/**
 * Reads of graphs whose nodes are held by more than one node (docs/architecture.md, "Reads and the
 * memo model"): each level's node is held twice by the level above, so the paths from the top
 * double at every level. A read must build each distinct row once per reader, and every walk over
 * the memo's records (checks, table notes, dependencies) must visit each record once: otherwise
 * the work doubles per level too. The depths here would not finish if it did; the counts say it
 * does not.
 */
import { createCache, denormalize, Entity, type CacheState } from '../../src/index';
import { Reader } from '../../src/memo/Reader';
import { makeStore } from '../fixtures/store';

/** How many instances reads built (validate runs once per instance built, and on writes). */
let built = 0;

class GNode extends Entity {
  id = '';
  n = 0;
  a: GNode | null = null;
  b: GNode | null = null;
  back: GNode | null = null;
  static override key = 'GNode';
  static override validate(): undefined {
    built++;
    return undefined;
  }
}
GNode.schema = { a: GNode, b: GNode, back: GNode };

/** Nodes 0 … depth, node i holding node i + 1 as both `a` and `b`; with `back`, every node also holds node 0. */
function setup(depth: number, { back = false, maxEntityDepth = 64 } = {}) {
  const { cache, store } = makeStore({ maxEntityDepth });
  const rows = Array.from({ length: depth + 1 }, (_, i) => ({
    id: String(i),
    n: i,
    a: i < depth ? String(i + 1) : null,
    b: i < depth ? String(i + 1) : null,
    back: back ? '0' : null,
  }));
  // Rows as refs: each row is written on its own, so the write does not walk the graph.
  for (const row of rows) store.dispatch(cache.set(GNode, row));
  const slice = () => store.getState().cache as CacheState;
  return { cache, store, slice };
}

/** The distinct GNode objects reachable from `root`. */
function distinct(root: GNode): Set<GNode> {
  const seen = new Set<GNode>();
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    stack.push(node.a!, node.b!, node.back!);
  }
  return seen;
}

/**
 * True when two graphs have the same fields and the same sharing, node for node (Jest's deep
 * equality follows every path, which doubles per level here).
 */
function sameGraph(a: unknown, b: unknown, pairs = new Map<unknown, unknown>()): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b;
  if (pairs.has(a)) return pairs.get(a) === b;
  pairs.set(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(key => sameGraph((a as never)[key], (b as never)[key], pairs));
}

/** A copy of `state` whose GNode table counts the rows looked up in it. */
function counting(state: CacheState): { state: CacheState; lookups: () => number } {
  let lookups = 0;
  const table = new Proxy(state.entities.GNode!, {
    get(target, key, receiver) {
      lookups++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  const entities = Object.assign(Object.create(null) as object, state.entities, { GNode: table });
  return { state: { ...state, entities } as CacheState, lookups: () => lookups };
}

const DEPTH = 30;

test('the plain read builds each node once', () => {
  const { slice } = setup(DEPTH);
  built = 0;
  const root = denormalize(GNode, '0', [], slice()) as GNode;
  expect(built).toBe(DEPTH + 1);
  expect(root.a).toBe(root.b);
  expect(distinct(root).size).toBe(DEPTH + 1);
});

test('the first memoized read builds each node once, and looks up each row a bounded number of times', () => {
  const { slice } = setup(DEPTH);
  const { state, lookups } = counting(slice());
  const reader = new Reader({ argsCacheSize: 10, lensCacheSize: 4, maxEntityDepth: 64 });
  built = 0;
  const read = reader.query(state, GNode, [{ id: '0' }]);
  const root = read.value as GNode;
  expect(built).toBe(DEPTH + 1);
  expect(root.a).toBe(root.b);
  expect(root.a!.a).toBe(root.b!.b);
  expect(distinct(root).size).toBe(DEPTH + 1);
  expect(lookups()).toBeLessThanOrEqual(4 * (DEPTH + 1));
  // The read's dependencies: each row once, however many paths lead to it.
  const rows: string[] = [];
  read.someDep((table, key) => (rows.push(`${table}/${key}`), false));
  expect(new Set(rows).size).toBe(DEPTH + 1);
  expect(rows.length).toBeLessThanOrEqual(2 * (DEPTH + 1));
});

test('a change at the bottom rebuilds each node above it once; a read of a lower node reuses them', () => {
  const { cache, store } = setup(DEPTH);
  const read = (id: string) => cache.selectQuery(store.getState(), GNode, { id }) as GNode;
  const before = read('0');
  store.dispatch(cache.set(GNode, { id: String(DEPTH), n: -1 }));
  built = 0;
  const after = read('0');
  expect(built).toBe(DEPTH + 1);
  expect(after).not.toBe(before);
  expect(distinct(after).size).toBe(DEPTH + 1);
  // Checking a cached node (and all it holds) costs its records once each.
  built = 0;
  expect(read('1')).toBe(after.a);
  expect(built).toBe(0);
});

test('a graph with cycles and shared nodes: built once per node, its records stay linear', () => {
  const { cache, store, slice } = setup(DEPTH, { back: true });
  built = 0;
  const root = cache.selectQuery(store.getState(), GNode, { id: '0' }) as GNode;
  expect(built).toBe(DEPTH + 1);
  expect(root.a!.back).toBe(root);
  expect(root.a!.a!.b!.back).toBe(root);
  expect(distinct(root).size).toBe(DEPTH + 1);
  // Each node's record names what it holds instead of copying it: the read's rows stay linear.
  const reader = new Reader({ argsCacheSize: 10, lensCacheSize: 4, maxEntityDepth: 64 });
  const read = reader.query(slice(), GNode, [{ id: '0' }]);
  let rows = 0;
  read.someDep(() => (rows++, false));
  expect(rows).toBeLessThanOrEqual(3 * (DEPTH + 1));
  // A change at the bottom reaches the top through the cycle links.
  store.dispatch(cache.set(GNode, { id: String(DEPTH), n: -1 }));
  built = 0;
  const after = cache.selectQuery(store.getState(), GNode, { id: '0' }) as GNode;
  expect(built).toBe(DEPTH + 1);
  let node = after;
  for (let i = 0; i < DEPTH; i++) node = node.b!;
  expect(node.n).toBe(-1);
  expect(node.back).toBe(after);
  expect(sameGraph(after, denormalize(GNode, '0', [], slice()))).toBe(true);
});

test('past maxEntityDepth: nodes cut short are built once per read at the depth they are first met', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  const limit = 16;
  const { slice } = setup(DEPTH, { maxEntityDepth: limit });
  built = 0;
  const plain = denormalize(GNode, '0', [], slice(), { maxEntityDepth: limit }) as GNode;
  expect(built).toBe(limit);
  const reader = createCache({ maxEntityDepth: limit });
  built = 0;
  const memo = reader.selectQuery({ cache: slice() }, GNode, { id: '0' }) as GNode;
  expect(built).toBe(limit);
  for (const root of [plain, memo]) {
    let node = root;
    for (let i = 1; i < limit; i++) {
      expect(node.a).toBe(node.b);
      node = node.a!;
    }
    // The ref past the limit stays as stored.
    expect(node.a).toBe(String(limit));
  }
  expect(sameGraph(memo, plain)).toBe(true);
  warn.mockRestore();
});

/**
 * Property-based tests (fast-check): random entity graphs round-trip through a write and a read;
 * random sequences of writes, deletes, pushes and lens switches keep the store serializable, keep
 * the store's invariants and agree with a plain model; every failing write leaves the store as it was.
 */
import fc from 'fast-check';
import {
  Collection,
  Entity,
  Invalidate,
  LensCacheError,
  Scalar,
  Union,
  Values,
  type CacheState,
} from '../../src/index';
import { classesFor, dataFor, shapeArb, type TypeShape } from '../fixtures/randomSchemas';
import { jsonProblems } from '../fixtures/recording';
import { makeStore } from '../fixtures/store';
import { endpoint } from '../fixtures/writes';

class PUser extends Entity {
  id = '';
  name = '';
  age = 0;
  static override key = 'PUser';
}
class PTag extends Entity {
  id = '';
  label = '';
  static override key = 'PTag';
}
class PPost extends Entity {
  id = '';
  title = '';
  group = '';
  author = PUser.fromJS();
  tags: PTag[] = [];
  stats = { views: 0, likes: 0 };
  static override key = 'PPost';
  static override schema = { author: PUser, tags: [PTag] };
}
class PCat extends Entity {
  id = '';
  type = 'cat';
  lives = 9;
  static override key = 'PCat';
}
class PDog extends Entity {
  id = '';
  type = 'dog';
  good = true;
  static override key = 'PDog';
}
class PFund extends Entity {
  id = '';
  name = '';
  weight = 0;
  static override key = 'PFund';
}
const LensScalar = new Scalar({
  lens: args => (args[0] as { lens?: string } | undefined)?.lens,
  key: 'plens',
  entity: PFund,
});
PFund.schema = { weight: LensScalar };

const pet = new Union({ cat: PCat, dog: PDog }, 'type');
const graph = { posts: [PPost], users: new Values(PUser), pets: [pet] };
const getGraph = endpoint('graph', graph);

/** Strings JSON keeps as they are (no lone surrogates), short enough to read in a failure. */
const text = fc.string({ maxLength: 12 });

/** A graph with unique pks per type; nested copies of an entity are identical, as an API sends them. */
const graphArb = fc
  .record({
    users: fc.uniqueArray(
      fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), name: text, age: fc.integer({ min: 0, max: 120 }) }),
      {
        minLength: 1,
        maxLength: 6,
        selector: user => user.id,
      },
    ),
    tags: fc.uniqueArray(fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), label: text }), {
      maxLength: 5,
      selector: tag => tag.id,
    }),
    posts: fc.array(
      fc.record({
        title: text,
        author: fc.nat(),
        tags: fc.array(fc.nat(), { maxLength: 3 }),
        views: fc.nat(),
        likes: fc.nat(),
      }),
      {
        maxLength: 8,
      },
    ),
    pets: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('cat' as const), lives: fc.integer({ min: 0, max: 9 }) }),
        fc.record({ type: fc.constant('dog' as const), good: fc.boolean() }),
      ),
      {
        maxLength: 5,
      },
    ),
  })
  .map(({ users, tags, posts, pets }) => ({
    posts: posts.map((post, i) => ({
      id: `p${i}`,
      title: post.title,
      group: 'g',
      author: { ...users[post.author % users.length]! },
      tags: tags.length ? [...new Set(post.tags.map(t => t % tags.length))].map(t => ({ ...tags[t]! })) : [],
      stats: { views: post.views, likes: post.likes },
    })),
    users: Object.fromEntries(users.map(user => [`key-${user.id}`, user])),
    pets: pets.map((p, i) => ({ id: `${p.type}${i}`, ...p })),
  }));

const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('write then read returns the input', () => {
  test('nested entities, arrays, Values and Unions', () => {
    fc.assert(
      fc.property(graphArb, input => {
        const { cache, store } = makeStore();
        store.dispatch(cache.setResponse(getGraph, input));
        const read = cache.selectResponse(store.getState(), getGraph).data;
        expect(json(read)).toEqual(json(input));
        // Classes come back: the nested author is a PUser, the pets their own classes.
        const data = read as { posts: PPost[]; pets: Array<PCat | PDog> };
        for (const post of data.posts) expect(post.author).toBeInstanceOf(PUser);
        for (const item of data.pets) expect(item).toBeInstanceOf(item.type === 'cat' ? PCat : PDog);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  test('Scalar fields under random lenses: each lens reads what was last written for it', () => {
    const funds = new Collection([PFund], { argsKey: () => ({}) });
    const getFunds = endpoint('funds', funds);
    const columns = endpoint('columns', new Values(LensScalar));
    const lensArb = fc.constantFrom('a', 'b', 'c', 'lens with space', '0');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        lensArb,
        fc.array(
          fc.record({
            lens: lensArb,
            values: fc.array(
              fc
                .double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
                .map(value => value + 0 /* JSON has no -0 */),
              { minLength: 5, maxLength: 5 },
            ),
          }),
          { maxLength: 8 },
        ),
        (count, first, writes) => {
          const { cache, store } = makeStore();
          const expected: Record<string, number[]> = {};
          const ids = Array.from({ length: count }, (_, i) => String(i + 1));
          const firstValues = ids.map((_, i) => i / 10);
          store.dispatch(
            cache.setResponse(
              getFunds,
              { lens: first },
              ids.map((id, i) => ({ id, name: `fund ${id}`, weight: firstValues[i] })),
            ),
          );
          expected[first] = firstValues;
          for (const write of writes) {
            store.dispatch(
              cache.setResponse(
                columns,
                { lens: write.lens },
                Object.fromEntries(ids.map((id, i) => [id, { weight: write.values[i] }])),
              ),
            );
            expected[write.lens] = ids.map((_, i) => write.values[i]!);
          }
          for (const [lens, values] of Object.entries(expected)) {
            const list = cache.selectQuery(store.getState(), funds, { lens }) as PFund[];
            expect(list.map(fund => fund.weight)).toEqual(values);
            expect(list.map(fund => fund.name)).toEqual(ids.map(id => `fund ${id}`));
          }
        },
      ),
      { numRuns: 100 },
    );
  }, 60_000);
});

/** The operations of a random session, against a model of what the store should answer. */
type Op =
  | { kind: 'upsert'; id: number; title: string }
  | { kind: 'delete'; id: number }
  | { kind: 'push'; group: 'a' | 'b'; id: number; title: string }
  | { kind: 'cell'; lens: string; fund: number; weight: number }
  | { kind: 'read'; lens: string }
  | { kind: 'bad'; value: unknown };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('upsert' as const), id: fc.nat({ max: 6 }), title: text }),
  fc.record({ kind: fc.constant('delete' as const), id: fc.nat({ max: 6 }) }),
  fc.record({
    kind: fc.constant('push' as const),
    group: fc.constantFrom('a' as const, 'b' as const),
    id: fc.nat({ max: 6 }),
    title: text,
  }),
  fc.record({
    kind: fc.constant('cell' as const),
    lens: fc.constantFrom('x', 'y', 'z'),
    fund: fc.nat({ max: 2 }),
    weight: fc.integer(),
  }),
  fc.record({ kind: fc.constant('read' as const), lens: fc.constantFrom('x', 'y', 'z') }),
  fc.record({
    kind: fc.constant('bad' as const),
    value: fc.constantFrom<unknown>(
      'not an object',
      42,
      [{ id: '1' }],
      { title: 'no pk' },
      { id: { nested: true }, title: 'object pk' },
      { id: '1', author: 'a string where an entity object or pk ref is fine', tags: 'not a list' },
    ),
  }),
);

/** Invariants every state must keep (docs/store.md, "The slice"). */
function checkInvariants(state: CacheState): void {
  // Plain JSON: no undefined, no Date or class instance, no NaN or Infinity, no cycle.
  expect(jsonProblems(state)).toEqual([]);
  for (const [table, rows] of Object.entries(state.entities)) {
    for (const [pk, row] of Object.entries(rows)) {
      if (table.startsWith('Scalar(')) {
        // Cell keys are entityKey|pk|lens.
        expect(pk.split('|')).toHaveLength(3);
      } else if (table.startsWith('[')) {
        // Lists hold pks of rows that exist (a tombstone counts: reads drop it).
        const target = table.slice(1, -1);
        for (const ref of row as unknown as string[]) expect(state.entities[target]?.[ref]).not.toBeUndefined();
      } else if (row !== null) {
        // Entity rows sit under their own pk.
        expect(String((row as { id?: unknown }).id)).toBe(pk);
      }
      // Every row has its meta.
      expect(state.entitiesMeta[table]?.[pk]).toBeDefined();
    }
  }
  // Every stored result has its meta.
  for (const key of Object.keys(state.endpoints)) expect(state.meta[key]).toBeDefined();
}

test('random sessions keep the store serializable, keep the invariants and agree with a model', () => {
  const list = new Collection([PPost], { argsKey: ({ group }: { group: string }) => ({ group }) });
  const getList = endpoint('list', list);
  const deletePost = endpoint('delete', new Invalidate(PPost));
  const fundList = new Collection([PFund], { argsKey: () => ({}) });
  const getFunds = endpoint('funds', fundList);
  const fundColumns = endpoint('fund-columns', new Values(LensScalar));
  fc.assert(
    fc.property(fc.array(opArb, { maxLength: 30 }), ops => {
      // Each write one millisecond after the last, so ordering is by the op sequence.
      let clock = 1_700_000_000_000;
      const now = jest.spyOn(Date, 'now').mockImplementation(() => clock);
      try {
        const { cache, store } = makeStore();
        const slice = () => store.getState().cache as CacheState;
        // The model: post rows (or null when deleted), each group's list, each lens's cells.
        const posts = new Map<string, { title: string } | null>();
        const lists: Record<'a' | 'b', string[]> = { a: [], b: [] };
        const cells: Record<string, Record<string, number>> = { x: { 0: 0, 1: 1, 2: 2 } };
        store.dispatch(cache.setResponse(getList, { group: 'a' }, []));
        store.dispatch(cache.setResponse(getList, { group: 'b' }, []));
        store.dispatch(
          cache.setResponse(
            getFunds,
            { lens: 'x' },
            [0, 1, 2].map(i => ({ id: String(i), name: `f${i}`, weight: i })),
          ),
        );
        for (const op of ops) {
          clock++;
          const before = slice();
          switch (op.kind) {
            case 'upsert':
              store.dispatch(
                cache.set(PPost, {
                  id: String(op.id),
                  title: op.title,
                  group: 'g',
                  author: { id: 'u', name: 'U', age: 1 },
                }),
              );
              posts.set(String(op.id), { title: op.title });
              break;
            case 'delete':
              store.dispatch(cache.setResponse(deletePost, { id: String(op.id) }));
              posts.set(String(op.id), null);
              break;
            case 'push':
              store.dispatch(
                cache.set(
                  list.push,
                  { group: op.group },
                  { id: String(op.id), title: op.title, group: op.group, author: { id: 'u', name: 'U', age: 1 } },
                ),
              );
              posts.set(String(op.id), { title: op.title });
              // A list never holds a ref twice: pushing an item it holds keeps its place.
              if (!lists[op.group].includes(String(op.id))) lists[op.group].push(String(op.id));
              break;
            case 'cell':
              store.dispatch(
                cache.setResponse(fundColumns, { lens: op.lens }, { [String(op.fund)]: { weight: op.weight } }),
              );
              (cells[op.lens] ??= {})[op.fund] = op.weight;
              break;
            case 'read':
              break;
            case 'bad': {
              let thrown: unknown;
              try {
                store.dispatch(cache.set(PPost, op.value));
              } catch (error) {
                thrown = error;
              }
              // Either rejected with a LensCacheError and nothing changed, or a valid write.
              if (thrown !== undefined) {
                expect(thrown).toBeInstanceOf(LensCacheError);
                expect(slice()).toBe(before);
              } else {
                const value = op.value as { id: string; title?: string };
                posts.set(String(value.id), { title: value.title ?? posts.get(String(value.id))?.title ?? '' });
              }
              break;
            }
          }
          checkInvariants(slice());
          // The model's answers.
          for (const [id, expected] of posts) {
            const read = cache.selectQuery(store.getState(), PPost, id);
            expect(read === undefined ? null : { title: read.title }).toEqual(expected);
          }
          for (const group of ['a', 'b'] as const) {
            const read = cache.selectQuery(store.getState(), list, { group }) as PPost[];
            const live = lists[group].filter(id => posts.get(id) !== null);
            expect(read.map(post => post.id)).toEqual(live);
          }
          if (op.kind === 'read' || op.kind === 'cell') {
            const lens = op.lens;
            const funds = cache.selectQuery(store.getState(), fundList, { lens }) as PFund[];
            expect(funds.map(fund => fund.weight)).toEqual([0, 1, 2].map(i => cells[lens]?.[i]));
          }
        }
      } finally {
        now.mockRestore();
      }
    }),
    { numRuns: 120 },
  );
}, 60_000);

test('random schemas: a list of random nested entities, arrays and Values round-trips', () => {
  // The generated schemas do nest: some have an entity three levels down.
  const depth = (shape: TypeShape): number =>
    1 + Math.max(0, ...shape.fields.map(field => (field.child ? depth(field.child) : 0)));
  expect(fc.sample(shapeArb, { numRuns: 200, seed: 1 }).some(shape => depth(shape) >= 3)).toBe(true);
  fc.assert(
    fc.property(
      shapeArb,
      fc.integer({ min: 1, max: 2 ** 30 }),
      fc.integer({ min: 0, max: 4 }),
      (shape, seed, count) => {
        let state = seed;
        const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
        const Root = classesFor(shape);
        const ids = { n: 0 };
        const input = Array.from({ length: count }, () => dataFor(shape, next, ids));
        const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
        try {
          const { cache, store } = makeStore();
          const getRoots = endpoint('roots', [Root]);
          store.dispatch(cache.setResponse(getRoots, input));
          expect(json(cache.selectResponse(store.getState(), getRoots).data)).toEqual(json(input));
          checkInvariants(store.getState().cache as CacheState);
        } finally {
          warn.mockRestore();
        }
      },
    ),
    { numRuns: 150 },
  );
}, 60_000);

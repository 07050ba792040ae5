/**
 * The pure denormalize as the oracle of the memoized reads: random schemas (nested entities,
 * arrays, Values, lens-dependent Scalar fields, links back to the root that close cycles), random
 * sequences of writes, deletes and cell writes, and after each one every memoized read deep-equals
 * the pure read of the same state, under every lens, read in a random order. Cyclic graphs are
 * compared as their unfoldings (fixtures/unfolding.ts): where a cycle closes depends on the row a
 * read entered it by.
 */
import fc from 'fast-check';
import { All, Collection, Invalidate, Query, Values, type CacheState } from '../../src/index';
import { denormalize, denormalizeQuery } from '../../src/denormalize/denormalize';
import { INVALID } from '../../src/schema/contract';
import { classesFor, classesOf, dataFor, shapeArbOf, type TypeShape } from '../fixtures/randomSchemas';
import { makeStore } from '../fixtures/store';
import { expectSameUnfolding } from '../fixtures/unfolding';
import { endpoint } from '../fixtures/writes';

const LENSES = ['a', 'b', 'c'] as const;

interface Op {
  kind: 'rewrite' | 'update' | 'delete' | 'cell' | 'read';
  pick: number;
  lens: (typeof LENSES)[number];
  value: number;
}

const opArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('rewrite' as const, 'update' as const, 'delete' as const, 'cell' as const, 'read' as const),
  pick: fc.nat(),
  lens: fc.constantFrom(...LENSES),
  value: fc.nat(),
});

/** What users see: the internal mark of deleted data reads as `undefined`. */
const visible = (value: unknown): unknown => (value === INVALID ? undefined : value);

/** A session over one random schema: its endpoints and a seeded data generator. */
function session(shape: TypeShape, seed: number) {
  const Root = classesFor(shape);
  const classes = classesOf(Root);
  const list = new Collection([Root], { argsKey: () => ({}) });
  const getList = { key: (_args: { lens: string }) => 'roots', schema: list };
  const sorted = new Query(new All(Root), rows => [...rows].sort((a, b) => (String(a.pk()) < String(b.pk()) ? -1 : 1)));
  const ids = { n: 0 };
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
  /** Roots whose links may name any root of this batch, itself included (a cycle). */
  const roots = (count: number, fixedId?: string): Record<string, unknown>[] => {
    const rootIds: string[] = fixedId ? [fixedId] : [];
    return Array.from({ length: count }, () => {
      if (!fixedId) rootIds.push(`i${ids.n}`);
      const row = dataFor(shape, next, ids, rootIds);
      return fixedId ? { ...row, id: fixedId } : row;
    });
  };
  return { Root, classes, list, getList, sorted, roots };
}

type Session = ReturnType<typeof session>;

/** Every read the test compares, memoized and pure, for one lens. */
function compareReads(s: Session, cache: ReturnType<typeof makeStore>['cache'], root: unknown, lens: string): number {
  const slice = (root as { cache: CacheState }).cache;
  const entities = slice.entities;
  const args = [{ lens }];
  expectSameUnfolding(
    cache.selectQuery(root as never, s.list, { lens }),
    visible(denormalizeQuery(s.list, args, entities)),
  );
  expectSameUnfolding(
    cache.selectQuery(root as never, s.sorted, { lens }),
    visible(denormalizeQuery(s.sorted, args, entities)),
  );
  const stored = slice.endpoints['roots'];
  expectSameUnfolding(
    cache.selectResponse(root as never, s.getList, { lens }).data,
    visible(denormalize(s.list, stored, args, entities)),
  );
  const ids = Object.keys(entities[s.Root.key] ?? {});
  for (const id of ids) {
    const rowArgs = [{ id, lens }];
    expectSameUnfolding(
      cache.selectQuery(root as never, s.Root, { id, lens }),
      visible(denormalizeQuery(s.Root, rowArgs, entities)),
    );
  }
  return ids.length;
}

/** Applies one op: a new list, a root rewritten, a row of any type deleted, or one Scalar cell written. */
function apply(
  s: Session,
  store: ReturnType<typeof makeStore>['store'],
  cache: ReturnType<typeof makeStore>['cache'],
  op: Op,
): void {
  const entities = (store.getState() as { cache: CacheState }).cache.entities;
  const pickRow = (table: string): string | undefined => {
    const keys = Object.keys(entities[table] ?? {}).filter(key => entities[table]![key] !== null);
    return keys.length ? keys[op.pick % keys.length] : undefined;
  };
  if (op.kind === 'rewrite') {
    store.dispatch(cache.setResponse(s.getList, { lens: op.lens }, s.roots(op.value % 4)));
  } else if (op.kind === 'update') {
    const id = pickRow(s.Root.key);
    if (id !== undefined) store.dispatch(cache.set(s.Root, { lens: op.lens }, s.roots(1, id)[0]!));
  } else if (op.kind === 'delete') {
    const types = [...s.classes.types.values()];
    const Type = types[op.value % types.length]!;
    const id = pickRow(Type.key);
    if (id !== undefined)
      store.dispatch(cache.setResponse(endpoint(`delete ${Type.key}`, new Invalidate(Type as never)), { id }));
  } else if (op.kind === 'cell' && s.classes.scalars.length) {
    const { scalar, table, field } = s.classes.scalars[op.value % s.classes.scalars.length]!;
    const id = pickRow(table);
    if (id !== undefined)
      store.dispatch(
        cache.setResponse(
          endpoint(`cells ${table}`, new Values(scalar)),
          { lens: op.lens },
          { [id]: { [field]: op.value } },
        ),
      );
  }
}

test('memoized reads deep-equal the pure denormalize after random writes, under every lens', () => {
  let rowsRead = 0;
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    fc.assert(
      fc.property(
        shapeArbOf(true),
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.array(opArb, { minLength: 1, maxLength: 12 }),
        (shape, seed, ops) => {
          const s = session(shape, seed);
          const { cache, store } = makeStore();
          store.dispatch(cache.setResponse(s.getList, { lens: 'a' }, s.roots(3)));
          for (const op of ops) {
            apply(s, store, cache, op);
            // Lenses in an order that changes with the op, so A → B → A switches happen.
            for (let i = 0; i < LENSES.length; i++)
              rowsRead += compareReads(s, cache, store.getState(), LENSES[(op.pick + i) % LENSES.length]!);
          }
        },
      ),
      { numRuns: 150 },
    );
  } finally {
    warn.mockRestore();
  }
  // The sessions did read rows (the oracle compared something).
  expect(rowsRead).toBeGreaterThan(1000);
}, 120_000);

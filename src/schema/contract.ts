/**
 * The runtime contract between the schema constructs and the two walkers. A construct knows its
 * own rules (pks, merges, which rows it reads); the walkers own the store, the patches and the
 * memo caches, and hand themselves to the constructs as these delegates.
 */

import { isPlainRecord } from '../base/dict.js';
import type { RowChecker } from '../base/checkRow.js';
import type { WriteMeta } from '../base/patch.js';
import type { Dict } from '../base/dict.js';

/**
 * What a read resolves to when data must be treated as deleted: a tombstone, a failed `validate`,
 * an object with an invalid member. Never returned to users: the top level turns it into
 * `undefined` (or `expiryStatus: 'invalid'`).
 */
export const INVALID: unique symbol = Symbol('lenscache.invalid');

import type { EndpointMeta, Row } from '../base/state.js';

export type { Row };

/** How the normalize walker merges a row into what is already stored (docs/Entity.md). */
export interface RowPolicy {
  /** Merges two rows; `existing` is the older side of the merge, `incoming` wins on overlap. */
  merge(existing: object, incoming: object): object;
  /** True when `incoming` must not replace `existing` (by default: it started earlier). */
  shouldReorder(existingMeta: WriteMeta, incomingMeta: WriteMeta, existing: Row, incoming: Row): boolean;
  /**
   * A delta (a push, a removal) was computed from the row as this write found it, so it applies
   * whatever the ordering; the row's meta then becomes the newer of the two (docs/Collection.md).
   */
  readonly delta?: boolean;
  /**
   * Whether `shouldReorder` orders by the rows' own versions (an entity that overrides it), so
   * overlapping mutation answers are decided by it, not marked unsure. Unset: it does not.
   */
  readonly versioned?: boolean;
}

/**
 * Normalizes a value as its schema's `normalize` would, as one object per schema: what `visitWith`
 * calls where a construct knows the schema a field holds (an Entity class, a list of one), so the
 * walk skips its dispatch on the schema's kind (docs/benchmarks.md).
 */
export interface ValueWriter {
  write(value: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown;
}

/** What a construct may ask of the normalize walker. */
export interface NormalizeDelegate {
  readonly args: readonly unknown[];
  /** Normalizes `value` by `schema`, returning the ref (or the value itself when no schema applies). */
  visit(schema: unknown, value: unknown, parent: unknown, key: string | undefined): unknown;
  /**
   * `visit` for a schema `writer` stands for, whose `normalize` is `writer.write` and which takes no
   * `null` (an Entity class, a plain list): the same walk, without the dispatch.
   */
  visitWith(writer: ValueWriter, value: unknown, parent: unknown, key: string | undefined): unknown;
  /** The row as this write would leave it so far: pending in this write, else stored. */
  getRow(table: string, key: string): Row | undefined;
  /** The row as the store held it before this write. */
  storedRow(table: string, key: string): Row | undefined;
  /** The keys of `table`: stored ones, then ones first written by this write. */
  rowKeys(table: string): string[];
  /**
   * Queues a row for this write; merged with earlier rows of the same key in document order.
   * `owned` says the walk made `row` and nothing else holds it: it may then be merged into and
   * frozen in place instead of copied (docs/benchmarks.md, "Cold paths").
   */
  setRow(table: string, key: string, row: Row, policy: RowPolicy, owned?: boolean, checked?: boolean): void;
  /**
   * The row checks of this write (base/checkRow.ts). `setRow(..., owned, checked)`: a row whose
   * fields are all the checker's copies (`field`), in an object the walk built field by field, is
   * then frozen as it is rather than copied again.
   */
  readonly checker: RowChecker;
  /**
   * Merges `input`'s defined fields into the row this write queued for `table` `key`, when that
   * row is the walk's own, queued under the same `policy` (the default merge, in place), and one
   * more entity level is allowed; false when not, and nothing is done. For an entity whose row is
   * its input's fields (a leaf with the base process, merge and pk): the same row as walking
   * `input` again.
   */
  mergeRepeat(table: string, key: string, input: object, policy: RowPolicy): boolean;
  /** The ref of `input` when it is already being walked for `table` (a cycle), if so. */
  seen(input: object, table: string): string | undefined;
  /**
   * Enters an entity: records `input` for cycle detection, checks the nesting depth, and makes
   * `row` (the object its fields are normalized into) the parent entity of nested visits.
   */
  enterEntity(
    input: object,
    table: string,
    ref: string,
    row: object,
    fields: Readonly<Record<string, unknown>> | undefined,
  ): void;
  leaveEntity(): void;
  /** The nearest enclosing entity of the walk, if any (a Scalar field writes to its cell). */
  parentEntity(): EntityFrame | undefined;
  /** Lets `input` be stored under a placeholder pk when it has none (pushed items, docs/Collection.md). */
  allowPlaceholder(input: object): void;
  /** A fresh placeholder row key when `input` was allowed one, else `undefined`. */
  placeholderPk(input: object): string | undefined;
  /** Makes sure `table` exists after this write, even with no rows (an `All` read of it is then `[]`). */
  ensureTable(table: string): void;
  /** When this write's request started and when it expires (a page compares it with its list's, docs/pagination.md). */
  readonly meta: WriteMeta;
  /** The stored meta of another request, by its key (a page reads its list's, docs/pagination.md). */
  requestMeta(key: string): EndpointMeta | undefined;
}

/** An entity being normalized: where its row goes, the row being built, its field schemas. */
export interface EntityFrame {
  readonly table: string;
  readonly key: string;
  readonly row: object;
  readonly fields: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Builds a row's value, as a `build` callback does, but as one object per reader rather than a
 * closure per read (a list of 1,000 posts reads 6,000 refs). `hold` as for `build`.
 */
export interface RowBuilder {
  buildRow(row: object, key: string, delegate: DenormalizeDelegate, hold: (value: object) => void): unknown;
}

/** What a construct may ask of the denormalize walker. */
export interface DenormalizeDelegate {
  readonly args: readonly unknown[];
  /** Denormalizes a stored ref by `schema`; may return INVALID. */
  unvisit(schema: unknown, input: unknown): unknown;
  /**
   * Reads the row `table[key]` (an entity, or a collection's list) as a memoized value. `build` creates the value from the row and
   * must call `hold(value)` as soon as the object exists, so that a cycle back to this row gets
   * the same object. Missing row → `undefined`; tombstone → INVALID. Values are cached per `owner`
   * (the Entity class or construct reading the row): two classes sharing a table never share an
   * object, and each read builds an instance of the class asked for. `build` may be a RowBuilder.
   */
  entity(
    table: string,
    key: string,
    build: ((row: object, hold: (value: object) => void) => unknown) | RowBuilder,
    owner: object,
    pastLimit?: (row: object) => unknown,
  ): unknown;
  /**
   * A nested object stored where a ref is expected (docs/Entity.md): `build` makes its value one
   * entity level deeper, so it counts toward `maxEntityDepth` as the row it stands for would; it
   * is not kept by row (the read's own memo keeps it stable). Past the limit the value is
   * `pastLimit(input)`. `pastLimit` of `entity` is the same for a row: what the value is past the
   * limit (without it, the ref stays as stored: the key).
   */
  inline(
    input: object,
    build: (row: object, hold: (value: object) => void) => unknown,
    owner: object,
    pastLimit: (row: object) => unknown,
  ): unknown;
  /** A whole table (tracked as a dependency of the read), or `undefined` when it does not exist. */
  table(table: string): Dict<Row> | undefined;
  /** The stored row, tracked as a dependency of the value being built. */
  row(table: string, key: string): Row | undefined;
  /**
   * `lens(args)` for this read, `undefined` when it is not a valid lens (docs/Scalar.md). The value being built (and its containers) is then cached per
   * lens value: views under different lenses coexist, and views that read no lens are shared.
   */
  lens(lens: (args: readonly unknown[]) => unknown): string | undefined;
  /**
   * `compute()`, memoized per owner and args: reused while `input` is the same object, or a plain
   * container holding the very same members (docs/Query.md, "Memoization").
   */
  computed(owner: object, input: unknown, compute: () => unknown): unknown;
}

/** What a construct may ask when building a query key from the store (docs/store.md). */
export interface QueryDelegate {
  readonly args: readonly unknown[];
  /** The stored row, tracked as a dependency of the read. */
  row(table: string, key: string): Row | undefined;
  table(table: string): Dict<Row> | undefined;
  /** The query key of a nested schema. */
  queryKey(schema: unknown, args: readonly unknown[]): unknown;
}

/** The shape of input a construct accepts at the root of a write. */
export type RootInput = 'object' | 'list' | 'object-or-list' | 'object-or-pk' | 'any';

/** The interface every schema construct (class instance or Entity class) implements. */
export interface SchemaConstruct {
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown;
  denormalize(input: unknown, delegate: DenormalizeDelegate): unknown;
  /** `undefined` when the construct cannot be read without a stored response. */
  queryKey(args: readonly unknown[], delegate: QueryDelegate): unknown;
  readonly rootInput: RootInput;
  /** True when a `null` value must still reach `normalize` (a Scalar field stores `null`, docs/Scalar.md). */
  readonly normalizesNull?: boolean;
  /**
   * The schema of the refs a stored value holds when reads leave them unresolved (Lazy): garbage
   * collection follows them through it, since a later read of the field needs those rows.
   */
  readonly unresolved?: unknown;
}

export function isConstruct(schema: unknown): schema is SchemaConstruct {
  return (
    schema !== null &&
    (typeof schema === 'object' || typeof schema === 'function') &&
    typeof (schema as Partial<SchemaConstruct>).normalize === 'function' &&
    typeof (schema as Partial<SchemaConstruct>).denormalize === 'function'
  );
}

/** A plain object schema (`{ ticker: Ticker, stats: Stats }`), as opposed to a construct. */
export { isPlainRecord as isPlainObjectSchema } from '../base/dict.js';

/** What a schema accepts at the root of a write (docs/plain-schemas.md). */
export function rootInputOf(schema: unknown): RootInput {
  if (Array.isArray(schema)) return 'object-or-list';
  if (isConstruct(schema)) return schema.rootInput;
  if (isPlainRecord(schema)) return 'object';
  return 'any';
}

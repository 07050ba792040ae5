/** Scalar: entity fields whose value depends on a request argument, the lens. See docs/Scalar.md. */

import { describe, inputError, setupError } from '../base/errors.js';
import { freezeInDevelopment } from '../base/env.js';
import { copyOwn, hasOwn, isObject, isRecord, setOwn } from '../base/dict.js';
import type {
  DenormalizeDelegate,
  NormalizeDelegate,
  QueryDelegate,
  RootInput,
  RowPolicy,
  SchemaConstruct,
} from './contract.js';
import { cellKey, LastCellKey } from './cellKeys.js';
import { readList } from './members.js';
import { isEntityClass, type EntityClass } from './Entity.js';
import { isUsablePk } from './pk.js';

/**
 * A read's or write's params as a lens sees them when the Scalar names no type for them: any
 * endpoint's args can reach a Scalar field, so their values are not known here. They are `any`,
 * so the short form `lens: args => args[0]?.portfolio` compiles; a lens that names its params
 * (`LensArgs<{ portfolio?: string }>`) is checked against them.
 */
export type LensParams = { readonly [name: string]: any };

/**
 * The args a lens receives: those of the read or write, `args[0]` being its params object (absent
 * for an endpoint called without one). Name the params the lens reads:
 * `lens: (args: LensArgs<{ portfolio?: string }>) => args[0]?.portfolio` (docs/Scalar.md, "Types").
 */
export type LensArgs<P extends object = LensParams> = readonly [params?: P, ...rest: unknown[]];

/**
 * A lens function typed for its params. Written as a method's type, so its args are compared both
 * ways: a Scalar typed for `{ portfolio?: string }` still fits where any `Scalar` is expected (an
 * entity's `static schema` type, a list of Scalars).
 */
type Lens<P extends object> = { lens(args: LensArgs<P>): string | undefined }['lens'];

/** The function a Scalar keeps, as the walkers call it: any args, and any answer is checked (isValidLens). */
type LensFunction = (args: readonly unknown[]) => string | undefined;

export interface ScalarOptions<P extends object = LensParams> {
  /** Picks the lens from a read's or write's args, e.g. `(args: LensArgs<{ portfolio?: string }>) => args[0]?.portfolio`. */
  lens: Lens<P>;
  /** Names the table, `Scalar(<key>)`; Scalars with one key share it. */
  key: string;
  /** The entity a standalone Scalar's items belong to (`Values(S)`, `[S]`, `Collection([S])`). */
  entity?: EntityClass | undefined;
}

/** Cells merge like entity rows (docs/Scalar.md): not older → incoming fields win; older → stored ones do. */
const cellPolicy: RowPolicy = {
  merge: (existing, incoming) => ({ ...existing, ...incoming }),
  shouldReorder: (existingMeta, incomingMeta) => incomingMeta.fetchedAt < existingMeta.fetchedAt,
};

/**
 * Fields whose values depend on the lens. As an entity field the row keeps a lens-independent
 * reference and each lens's values live in a cell `<entityKey>|<entityPk>|<lens>`; several
 * components can then show the same entity under different lenses at once.
 *
 * @example
 * ```ts
 * const PortfolioScalar = new Scalar({ lens: args => args[0]?.portfolio, key: 'portfolio', entity: Company });
 * class Company extends Entity {
 *   id = ''; price = 0; pct_equity = 0; shares = 0;
 *   static schema = { pct_equity: PortfolioScalar, shares: PortfolioScalar };
 * }
 * ```
 * @see docs/Scalar.md
 */
export class Scalar<
  Cell extends object = Record<string, unknown>,
  P extends object = LensParams,
> implements SchemaConstruct {
  readonly kind = 'Scalar' as const;
  /** The table name, `Scalar(<key>)` for the `key` option, as in data-client. */
  declare readonly key: string;
  declare readonly lens: Lens<P>;
  declare readonly entity: EntityClass | undefined;
  /** The table of the cells, `Scalar(<key>)`: the same string as `key`. */
  declare readonly table: string;
  /** @internal A Collection of this Scalar stores its lists in `[Scalar(<key>)]`. */
  declare readonly collectionMemberKey: string;
  readonly rootInput: RootInput = 'object';
  /** @internal A field value of `null` is stored in the cell (docs/Scalar.md). */
  readonly normalizesNull = true;
  /** The key of the cell a read of an entity field asked for last. */
  private readonly readKey = new LastCellKey();
  /** Type-only: the shape of one cell. */
  declare readonly __cell?: Cell;

  constructor(options: ScalarOptions<P>) {
    const { lens, key, entity } = (options ?? {}) as Partial<ScalarOptions<P>>;
    if (
      typeof lens !== 'function' ||
      typeof key !== 'string' ||
      key === '' ||
      (entity !== undefined && !isEntityClass(entity))
    ) {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `new Scalar() needs { lens: function, key: non-empty string, entity?: Entity class }; received ${describe(options)}.`,
          "Write new Scalar({ lens: args => args[0]?.portfolio, key: 'portfolio', entity: Company }).",
        ],
      );
    }
    this.lens = lens;
    this.entity = entity;
    this.table = `Scalar(${key})`;
    this.key = this.table;
    this.collectionMemberKey = this.table;
  }

  /**
   * The pk of the entity a standalone item belongs to (docs/Scalar.md): the map key inside `Values`, else
   * the bound entity's pk of the item. Override it when the item names its entity differently.
   */
  entityPk(input: object, parent: unknown, key: string | undefined, args: readonly unknown[]): unknown {
    if (
      key !== undefined &&
      parent !== null &&
      typeof parent === 'object' &&
      (parent as Record<string, unknown>)[key] === input
    )
      return key;
    return this.entity!.pk(input, parent, key, args);
  }

  /** @internal */
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    const entity = delegate.parentEntity();
    if (entity !== undefined) {
      if (parent === entity.row && key !== undefined && entity.fields?.[key] === this)
        return this.field(input, entity.table, entity.key, key, delegate);
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `${this.key} sits inside ${entity.table}.schema below a direct field${key === undefined ? '' : ` (at "${key}")`}; only direct entity fields can be Scalars.`,
          `Make each lens-dependent field a direct entry of ${entity.table}.schema, e.g. { pct_equity: scalar }.`,
        ],
      );
    }
    if (input === null) return null;
    return this.item(input, parent, key, delegate);
  }

  /** @internal Standalone reads: a cell key gives a copy of that cell; a root key, the lens's cells. */
  denormalize(input: unknown, delegate: DenormalizeDelegate): unknown {
    if (Array.isArray(input)) return readList(input, cpk => this.denormalize(cpk, delegate));
    if (typeof input !== 'string') return input;
    // Copies of the cells, never the stored objects.
    return delegate.entity(this.table, input, row => freezeInDevelopment(copyOwn(row)), cellCopies);
  }

  /**
   * @internal An entity field. `stored` is the row's tuple, `undefined` when the row
   * lacks the field (read as the tuple it would hold), or a raw value kept from older data.
   */
  denormalizeField(
    stored: unknown,
    rowKey: string,
    field: string,
    entityKey: string,
    delegate: DenormalizeDelegate,
  ): unknown {
    let pk = rowKey;
    let cellField = field;
    let cellEntity = entityKey;
    if (Array.isArray(stored) && stored.length === 3) {
      pk = stored[0] as string;
      cellField = stored[1] as string;
      cellEntity = stored[2] as string;
    } else if (stored !== undefined) return stored;
    // The read reports a bad lens as undefined (docs/Scalar.md), so there is no cell to read.
    const lens = delegate.lens(this.lens as LensFunction);
    if (lens === undefined) return undefined;
    const cell = delegate.row(this.table, this.readKey.of(cellEntity, pk, lens));
    if (!isObject(cell) || !hasOwn(cell, cellField)) return undefined;
    return (cell as Record<string, unknown>)[cellField];
  }

  /** @internal The keys of the lens's live cells, in table order; `undefined` when there are none. */
  queryKey(args: readonly unknown[], delegate: QueryDelegate): unknown {
    const lens = (this.lens as LensFunction)(args);
    if (!isValidLens(lens)) return undefined;
    const table = delegate.table(this.table);
    if (!table) return undefined;
    const suffix = `|${lens}`;
    const cpks: string[] = [];
    for (const cpk of Object.keys(table)) {
      const cell = table[cpk];
      // The lens holds no `|`, so the suffix is exactly the last segment, whatever `|` the pk holds.
      if (cell !== null && cell !== undefined && cpk.endsWith(suffix)) cpks.push(cpk);
    }
    return cpks.length === 0 ? undefined : cpks;
  }

  /** An entity field: the value goes to the cell of the parent entity's row; the row keeps a tuple. */
  private field(
    value: unknown,
    entityKey: string,
    rowKey: string,
    field: string,
    delegate: NormalizeDelegate,
  ): unknown {
    const lens = this.lensIn(delegate.args);
    const cell: Record<string, unknown> = {};
    setOwn(cell, field, value);
    delegate.setRow(this.table, cellKey(entityKey, rowKey, lens), cell, cellPolicy);
    return [rowKey, field, entityKey];
  }

  /** A standalone item: the whole item is merged into its entity's cell; no entity row is written. */
  private item(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): string {
    const entity = this.entity;
    if (entity === undefined) {
      throw setupError(
        'SCALAR_ENTITY_REQUIRED',
        process.env.NODE_ENV !== 'production' && [
          `${this.key} is used outside an entity (in Values, a list or a Collection) but names no entity for its cells.`,
          `Bind it: new Scalar({ lens, key: '${this.table.slice('Scalar('.length, -1)}', entity: Company }).`,
        ],
        this.key,
      );
    }
    if (!isRecord(input)) {
      throw inputError(
        'UNEXPECTED_INPUT',
        process.env.NODE_ENV !== 'production' && [
          `${this.key} expected an object of ${entity.key}'s lens-dependent fields${key === undefined ? '' : ` at "${key}"`}, but received ${describe(input)}.`,
          'Each item must be an object such as { pct_equity: 0.5 }; check the schema matches the response.',
        ],
        this.key,
      );
    }
    const pk = this.entityPk(input, parent, key, delegate.args);
    if (!isUsablePk(pk)) {
      throw inputError(
        'SCALAR_PK_UNDERIVABLE',
        process.env.NODE_ENV !== 'production' && [
          `${this.key} could not tell which ${entity.key} ${describe(input)} belongs to: entityPk() returned ${describe(pk)}.`,
          `Send the ${entity.key}'s id with each item, or override entityPk() to read the field that names it.`,
        ],
        this.key,
      );
    }
    const lens = this.lensIn(delegate.args);
    const cpk = cellKey(entity.key, String(pk), lens);
    delegate.setRow(this.table, cpk, { ...input }, cellPolicy);
    return cpk;
  }

  /** A write that reaches a Scalar needs a string lens without `|`. */
  private lensIn(args: readonly unknown[]): string {
    const lens = (this.lens as LensFunction)(args);
    if (lens === undefined) {
      throw inputError(
        'LENS_UNDEFINED',
        process.env.NODE_ENV !== 'production' && [
          `${this.key} has no lens for this write: lens(args) returned undefined for args ${describe(args)}.`,
          'Pass the lens in the args of the write (e.g. { portfolio: "A" }), as the lens function expects.',
        ],
        this.key,
      );
    }
    if (!isValidLens(lens)) {
      throw inputError(
        'INVALID_LENS',
        process.env.NODE_ENV !== 'production' && [
          `${this.key} got the lens ${describe(lens)}; a lens must be a string without "|".`,
          'Return a string id from the lens function; "|" separates the parts of a cell key.',
        ],
        this.key,
      );
    }
    return lens;
  }
}

/** The owner of cell copies in the read memo: a copy is the same whichever Scalar of the table reads it. */
const cellCopies = {};

/** A lens is a string without `|`; anything else reads as no lens. */
export function isValidLens(lens: unknown): lens is string {
  return typeof lens === 'string' && !lens.includes('|');
}

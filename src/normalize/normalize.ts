/**
 * normalize: a pure walk from a response to rows, a result and the patches that write them
 * (docs/architecture.md, "The flow"). It reads the current slice to merge and order rows, and writes nothing.
 */

import { nextSerial } from '../base/serial.js';
import { inputError, isErrorLike } from '../base/errors.js';
import { stableStringify } from '../base/json.js';
import type { Patch, WriteMeta } from '../base/patch.js';
import type { CacheState, EndpointMeta, Row } from '../base/state.js';
import {
  isConstruct,
  isPlainObjectSchema,
  rootInputOf,
  type EntityFrame,
  type NormalizeDelegate,
  type RowPolicy,
  type ValueWriter,
} from '../schema/contract.js';
import { normalizeArray } from '../schema/plainArray.js';
import { normalizeObject } from '../schema/plainObject.js';
import { hasOwn } from '../base/dict.js';
import { RowChecker, toJsonValue } from '../base/checkRow.js';
import { PatchList } from './PatchList.js';
import { rowPatches } from './rowPatches.js';
import { PendingRows, type PendingRow } from './PendingRows.js';
import { checkRoot, nonErrorThrown } from './rootChecks.js';

export interface NormalizeOptions {
  /** Entity nesting deeper than this throws MAX_DEPTH_EXCEEDED (docs/errors.md). */
  maxEntityDepth: number;
  /**
   * Only rows whose content changes get the write's meta (an edit of the cache, not an answer:
   * a row it left as it was keeps its expiry). Default: every row the write reaches.
   */
  changedRowsOnly?: boolean;
  /**
   * Every row written wins over the stored one, whatever their start stamps: an optimistic
   * guess is shown over the confirmed state it is computed against (docs/mutations.md).
   */
  overwrite?: boolean;
}

export interface Normalized {
  result: unknown;
  patches: Patch[];
  inversePatches: Patch[];
}

/**
 * Normalizes `input` by `schema` against `state`. Throws (and so writes nothing) on bad input.
 * The patches write every row the input holds, with `meta`, except rows whose merged content is
 * unchanged (a no-op write): those keep their object and only their meta moves forward.
 */
export function normalize(
  schema: unknown,
  input: unknown,
  args: readonly unknown[],
  state: CacheState,
  meta: WriteMeta,
  options: NormalizeOptions,
): Normalized {
  checkRoot(rootInputOf(schema), input);
  // Args reach Collection pks and user callbacks: a circular or absurdly deep one is refused
  // here with a coded error, before any walk could overflow the stack.
  stableStringify(args);
  const walk = new WriteWalk(args, state, options.maxEntityDepth, meta);
  try {
    // At the top level the input is its own parent, as in data-client (a `pk(value, parent)` may read it).
    const result = toJsonValue(
      walk.visit(schema, input, input, undefined),
      process.env.NODE_ENV !== 'production' && 'The result',
    );
    const list = new PatchList();
    rowPatches(list, state, walk.pending.tables, meta, options.changedRowsOnly === true, options.overwrite === true);
    return { result, ...list.written() };
  } catch (caught) {
    throw isErrorLike(caught) ? caught : nonErrorThrown(caught);
  }
}

/** An entity being walked: its frame, the input it came from (cycles are found by input), its row's place. */
interface WalkFrame {
  input: object;
  table: string;
  key: string;
  row: object;
  fields: Readonly<Record<string, unknown>> | undefined;
  /** Its row's place in the pending table. */
  placed: PendingRow;
}

/** The state of one write walk: the rows it queued, the entities it is inside, its depth. */
class WriteWalk implements NormalizeDelegate {
  /** The rows this write queued (a key is placed when its entity is entered). */
  readonly pending = new PendingRows();
  /** The entities being walked, outermost first: cycles are detected against this path. */
  private readonly entityPath: WalkFrame[] = [];
  /** How many frames of `entityPath` are in use: frames are reused, not allocated per entity. */
  private entityDepth = 0;
  /** The entity just left, until the next row is queued. */
  private left: WalkFrame | undefined = undefined;
  private depth = 0;
  declare private readonly depthLimit: number;
  /** Pushed items that may take a placeholder pk. */
  private placeholders: Set<object> | undefined = undefined;
  readonly checker = new RowChecker();

  declare readonly args: readonly unknown[];
  declare private readonly state: CacheState;
  declare private readonly maxEntityDepth: number;
  declare readonly meta: WriteMeta;

  constructor(args: readonly unknown[], state: CacheState, maxEntityDepth: number, meta: WriteMeta) {
    this.args = args;
    this.state = state;
    this.maxEntityDepth = maxEntityDepth;
    this.meta = meta;
    // Plain arrays and objects add levels without entities (and a Lazy can recurse through them).
    this.depthLimit = Math.max(256, maxEntityDepth * 8);
  }

  visit(schema: unknown, value: unknown, parent: unknown, key: string | undefined): unknown {
    if (value === undefined || schema === undefined || schema === null) return value;
    if (value === null && !(isConstruct(schema) && schema.normalizesNull)) return value;
    if (++this.depth > this.depthLimit) this.tooDeep();
    try {
      if (Array.isArray(schema)) return normalizeArray(schema, value, parent, key, this);
      if (isConstruct(schema)) return schema.normalize(value, parent, key, this);
      if (isPlainObjectSchema(schema)) return normalizeObject(schema, value, this);
      // A deserializer function: the raw value is stored, as JSON would store it (a Date read
      // back through `static schema = { at: Date }` and written again becomes its ISO string).
      return typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function'
        ? (value as { toJSON(): unknown }).toJSON()
        : value;
    } finally {
      this.depth--;
    }
  }

  visitWith(writer: ValueWriter, value: unknown, parent: unknown, key: string | undefined): unknown {
    if (value === undefined || value === null) return value;
    if (++this.depth > this.depthLimit) this.tooDeep();
    try {
      return writer.write(value, parent, key, this);
    } finally {
      this.depth--;
    }
  }

  private tooDeep(): never {
    throw inputError(
      'MAX_DEPTH_EXCEEDED',
      process.env.NODE_ENV !== 'production' && [
        `The input nests deeper than ${this.depthLimit} schema levels (a circular input?).`,
        'Send finite, acyclic data; recursive schemas must end in entities, which stop cycles.',
      ],
    );
  }

  getRow(table: string, key: string): Row | undefined {
    const row = this.pending.handOut(table, key);
    return row !== undefined ? row : this.state.entities[table]?.[key];
  }

  storedRow(table: string, key: string): Row | undefined {
    return this.state.entities[table]?.[key];
  }

  rowKeys(table: string): string[] {
    return this.pending.keys(table, this.state.entities[table]);
  }

  allowPlaceholder(input: object): void {
    (this.placeholders ??= new Set()).add(input);
  }

  placeholderPk(input: object): string | undefined {
    return this.placeholders?.has(input) ? nextPlaceholder() : undefined;
  }

  setRow(table: string, key: string, row: Row, policy: RowPolicy, owned = false, checked = false): void {
    // An entity's row is queued just after it is left: its placed row is at hand, no lookups.
    const left = this.left;
    this.left = undefined;
    const placed = left !== undefined && left.key === key && left.table === table ? left.placed : undefined;
    this.pending.queue(placed, table, key, row, policy, owned, checked);
  }

  mergeRepeat(table: string, key: string, input: object, policy: RowPolicy): boolean {
    return this.entityDepth < this.maxEntityDepth && this.pending.mergeRepeat(table, key, input, policy, this.checker);
  }

  requestMeta(key: string): EndpointMeta | undefined {
    return hasOwn(this.state.meta, key) ? this.state.meta[key] : undefined;
  }

  ensureTable(table: string): void {
    this.pending.table(table);
  }

  /**
   * An input object met again for the same table while it is still being walked is a
   * cycle, and gets its ref without a second walk. (An object merely repeated elsewhere in the
   * response is walked again; that merges identical content, and avoids hashing every input.)
   */
  seen(input: object, table: string): string | undefined {
    const path = this.entityPath;
    for (let i = this.entityDepth - 1; i >= 0; i--) {
      const step = path[i]!;
      if (step.input === input && step.table === table) return step.key;
    }
    return undefined;
  }

  enterEntity(
    input: object,
    table: string,
    ref: string,
    row: object,
    fields: Readonly<Record<string, unknown>> | undefined,
  ): void {
    // Place the row now, before its nested entities, so tables keep the response's order.
    const placed = this.pending.place(table, ref);
    const frame = this.entityPath[this.entityDepth++];
    if (frame === undefined) this.entityPath.push({ input, table, key: ref, row, fields, placed });
    else {
      frame.input = input;
      frame.table = table;
      frame.key = ref;
      frame.row = row;
      frame.fields = fields;
      frame.placed = placed;
    }
    if (this.entityDepth > this.maxEntityDepth) {
      throw inputError(
        'MAX_DEPTH_EXCEEDED',
        process.env.NODE_ENV !== 'production' && [
          `Entities nest deeper than maxEntityDepth (${this.maxEntityDepth}): ${this.entityPath
            .slice(0, 3)
            .map(step => `${step.table} "${step.key}"`)
            .join(' → ')} → … → ${table} "${ref}".`,
          'Send shallower data, or raise maxEntityDepth in createCache({ maxEntityDepth }).',
        ],
      );
    }
  }

  leaveEntity(): void {
    this.left = this.entityPath[--this.entityDepth];
  }

  parentEntity(): EntityFrame | undefined {
    // (The frame is reused once its entity is left: callers read it, and do not keep it.)
    return this.entityDepth === 0 ? undefined : this.entityPath[this.entityDepth - 1];
  }
}

/**
 * A pk for a pushed item the server has not named yet (docs/Collection.md, "Items without a pk"). The time part keeps keys
 * unique across page loads when the store is persisted; the counter, within one.
 */
function nextPlaceholder(): string {
  return `placeholder:${Date.now().toString(36)}:${nextSerial()}`;
}

/**
 * The plain read delegate: one walk of the store with nothing kept after it. It holds only what a
 * correct read needs: the objects being built on the current path (a cycle back to one of them
 * gets that very object), the nesting depth, and each lens function's value for this read.
 *
 * The memo (memo/ReadWalk.ts) extends it with dependency tracking and its caches; the pure
 * `denormalize` (denormalize.ts) uses it as it is.
 */

import { INVALID, type DenormalizeDelegate, type QueryDelegate, type RowBuilder } from '../schema/contract.js';
import { isValidLens } from '../schema/Scalar.js';
import type { Dict } from '../base/dict.js';
import { warnOnce } from '../base/env.js';
import type { Row } from '../base/state.js';
import { queryKey } from './queryKey.js';
import { unvisit } from './unvisit.js';

export type Entities = Dict<Dict<Row>>;
export type LensFn = (args: readonly unknown[]) => unknown;
export type Build = ((row: object, hold: (value: object) => void) => unknown) | RowBuilder;
/** What a row-backed value is when the depth limit is reached. */
export type PastLimit = (row: object) => unknown;

/** What `reuse` returns for a row not built yet. */
export const MISS: unique symbol = Symbol('lenscache.miss');

export class PlainRead implements DenormalizeDelegate, QueryDelegate {
  /**
   * The entities being built on the current path, as `owner, row, object, extra` quads: `object`
   * once the build holds it (a cycle back to the row then gets that object), `extra` what a
   * subclass keeps per entity (the memo: its entry). Scanned from the top, since
   * paths are short: cheaper than maps kept per owner.
   */
  protected readonly path: unknown[] = [];
  /** Values already built in this read, by owner and then row. */
  private readonly built = new Map<object, Map<object, unknown>>();
  /**
   * Values the depth limit cut short in this read (the memo keeps their entries), by owner and
   * row, with the depth they were built at. Such a value is not final (read again higher up, it may resolve further), but read
   * again no higher up it is the same value: otherwise a graph whose nodes are each held twice
   * would be built once per path past the limit, exponentially many times.
   */
  private cut: Map<object, Map<object, readonly [held: unknown, depth: number]>> | undefined = undefined;
  /** Set when the depth limit cut the value being built short (it is then incomplete). */
  protected truncated = false;
  private readonly lenses = new Map<LensFn, string | undefined>();
  /**
   * A lens that is not a string without `|` reads as no lens at all, so it is recorded as
   * `undefined`: args equal by value then share views even when the lens is an object.
   */
  protected readonly lensOf = (lens: LensFn): string | undefined => {
    if (this.lenses.has(lens)) return this.lenses.get(lens);
    const raw = lens(this.args);
    const value = isValidLens(raw) ? raw : undefined;
    this.lenses.set(lens, value);
    return value;
  };

  declare readonly entities: Entities;
  declare readonly args: readonly unknown[];
  declare protected readonly maxEntityDepth: number;
  constructor(entities: Entities, args: readonly unknown[], maxEntityDepth: number) {
    this.entities = entities;
    this.args = args;
    this.maxEntityDepth = maxEntityDepth;
  }

  unvisit(schema: unknown, input: unknown): unknown {
    return unvisit(schema, input, this);
  }

  queryKey(schema: unknown, args: readonly unknown[]): unknown {
    return queryKey(schema, args, this);
  }

  lens(lens: LensFn): string | undefined {
    return this.lensOf(lens);
  }

  computed(_owner: object, _input: unknown, compute: () => unknown): unknown {
    return compute();
  }

  row(table: string, key: string): Row | undefined {
    return this.entities[table]?.[key];
  }

  table(table: string): Dict<Row> | undefined {
    return this.entities[table];
  }

  /**
   * An entity read, as both readers do it: missing, deleted, a cycle, a value already built, past
   * the depth limit, else built. The hooks below are where the memo records and caches.
   */
  entity(table: string, key: string, build: Build, owner: object, pastLimit?: PastLimit): unknown {
    const row = this.entities[table]?.[key];
    if (row === undefined || row === null) {
      this.absent(table, key, row);
      return row === null ? INVALID : undefined;
    }
    const at = this.heldAt(owner, row);
    if (at >= 0) {
      this.cycle(at, table, key, row);
      return this.path[at + 2];
    }
    const reused = this.reuse(owner, row, table);
    if (reused !== MISS) return reused;
    const depth = this.path.length;
    const cut = this.cutAt(owner, row, depth);
    if (cut !== undefined) return this.reuseCut(cut[0]);
    if (this.tooDeep()) {
      this.absent(table, key, row);
      return pastLimit ? pastLimit(row) : key;
    }
    const truncatedBefore = this.truncated;
    this.truncated = false;
    const made = this.make(owner, row, key, build, table);
    if (!this.truncated) this.keep(owner, row, made);
    else this.noteCut(owner, row, made, depth);
    this.truncated ||= truncatedBefore;
    return this.valueOf(made);
  }

  /** A row the read met but builds nothing from (missing, deleted, or past the depth limit). */
  protected absent(_table: string, _key: string, _row: Row | undefined): void {}

  /** A cycle back to the row `path[at]` is building. */
  protected cycle(_at: number, _table: string, _key: string, _row: object): void {}

  /**
   * Within one read, a row read twice by the same owner gives the same value (as the memo does),
   * so each is built once per read; MISS when it was not built yet.
   */
  protected reuse(owner: object, row: object, _table: string): unknown {
    const done = this.built.get(owner);
    if (done === undefined) return MISS;
    // One lookup for a row built before (most repeated rows: a shared author); a second only
    // to tell a miss from a value that is itself undefined.
    const prior = done.get(row);
    return prior !== undefined || done.has(row) ? prior : MISS;
  }

  /** Builds the value of `row`: what `keep` and `noteCut` hold (the memo: its entry). */
  protected make(owner: object, row: object, key: string, build: Build, _table: string): unknown {
    return this.build(owner, row, key, build);
  }

  /** Keeps what `make` built for the rest of the read. */
  protected keep(owner: object, row: object, made: unknown): void {
    let done = this.built.get(owner);
    if (!done) this.built.set(owner, (done = new Map()));
    done.set(row, made);
  }

  /** The value of what `make` built. */
  protected valueOf(made: unknown): unknown {
    return made;
  }

  /** The value of what `noteCut` kept, met again no higher up (cutAt). */
  protected reuseCut(held: unknown): unknown {
    return held;
  }

  /**
   * What `noteCut` kept for `owner` and `row` if it was built no deeper than `depth` (the value
   * being built is then cut short too), else undefined. The memo keeps its entry here, this
   * class the value.
   */
  protected cutAt(owner: object, row: object, depth: number): readonly [held: unknown, depth: number] | undefined {
    const cut = this.cut?.get(owner)?.get(row);
    if (cut === undefined || cut[1] > depth) return undefined;
    this.truncated = true;
    return cut;
  }

  /** Keeps `held`, built at `depth` and cut short by the depth limit, for `cutAt`. */
  protected noteCut(owner: object, row: object, held: unknown, depth: number): void {
    let rows = (this.cut ??= new Map()).get(owner);
    if (!rows) this.cut.set(owner, (rows = new Map()));
    rows.set(row, [held, depth]);
  }

  /**
   * A nested object where a ref is expected: one entity level deeper, as the row it stands for
   * would be; built anew by each read (a read's memo keeps it stable); past the limit, `pastLimit(input)`.
   */
  inline(input: object, build: Build, owner: object, pastLimit: PastLimit): unknown {
    if (this.tooDeep()) return pastLimit(input);
    return this.build(owner, input, '', build);
  }

  /** Where on the path `owner` holds an object built from `row`, or -1. */
  protected heldAt(owner: object, row: object): number {
    const path = this.path;
    for (let i = path.length - 4; i >= 0; i -= 4) {
      if (path[i + 1] === row && path[i] === owner) return path[i + 2] === undefined ? -1 : i;
    }
    return -1;
  }

  /** True when one more entity would pass `maxEntityDepth`: the ref is then left as stored. */
  protected tooDeep(): boolean {
    if (this.path.length < this.maxEntityDepth * 4) return false;
    // Reads never throw for depth; deeper refs stay as they are stored.
    if (process.env.NODE_ENV !== 'production')
      warnOnce(
        `A read nests entities deeper than maxEntityDepth (${this.maxEntityDepth}); deeper refs are left unresolved.`,
      );
    this.truncated = true;
    return true;
  }

  /**
   * What a build's `hold(value)` does: the value becomes the object of the entity on top of the
   * path. Builds hold their value before they read anything nested (and nested reads leave the path
   * as they found it), so the top is always the entity being built: one function per read serves
   * every build, where a closure per build would be allocated 3,000 times in a list of 1,000 posts.
   */
  private readonly holdTop = (value: object): void => {
    this.path[this.path.length - 2] = value;
  };

  /** Builds a row-backed value one level deeper, with `row` held for cycles while it is built. */
  protected build(owner: object, row: object, key: string, build: Build, extra?: unknown): unknown {
    const path = this.path;
    const at = path.length;
    path.push(owner, row, undefined, extra);
    try {
      return typeof build === 'function' ? build(row, this.holdTop) : build.buildRow(row, key, this, this.holdTop);
    } finally {
      // (Pops: setting `length` goes through a slow generic setter in V8.)
      while (path.length > at) path.pop();
    }
  }
}

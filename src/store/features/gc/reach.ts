/**
 * What a garbage-collection sweep must keep among the rows: every row a kept read reaches. A
 * read is walked as the plain read walks it (denormalize/PlainRead.ts), so "reached" means
 * exactly "read by it", with three differences: each row is walked once per sweep and args,
 * whatever the number of reads reaching it; there is no depth limit (a deep chain is walked in
 * steps, never left unreached); and the refs behind a `Lazy` field are followed, since a later read of that
 * field needs them. A table listed whole (`All`) is reached whole. See docs/gc.md.
 */

import { PlainRead, type Build, type Entities } from '../../../denormalize/PlainRead.js';
import { INVALID, isConstruct } from '../../../schema/contract.js';
import { argsKey } from '../../../base/json.js';

/** Entities nested deeper than this in one walk are walked later, from the top. */
const STEP_DEPTH = 32;

/** The rows reached by the reads of one sweep. */
export class Reached {
  readonly rows = new Map<string, Set<string>>();
  readonly wholeTables = new Set<string>();
  /**
   * Rows already walked, per args (a Scalar field reads the cell of the read's lens) and per
   * reader (two classes sharing a table read its rows differently).
   */
  private readonly byArgs = new Map<string, WeakMap<object, WeakSet<object>>>();
  readonly later: Array<() => void> = [];

  mark(table: string, key: string): void {
    let keys = this.rows.get(table);
    if (!keys) this.rows.set(table, (keys = new Set()));
    keys.add(key);
  }

  has(table: string, key: string): boolean {
    return this.wholeTables.has(table) || this.rows.get(table)?.has(key) === true;
  }

  /** Walks `schema` read with `args`: from `stored` (a stored result), or from a key built from the store. */
  walk(entities: Entities, schema: unknown, args: readonly unknown[], stored?: unknown): void {
    const key = argsKey(args);
    let walked = this.byArgs.get(key);
    if (!walked) this.byArgs.set(key, (walked = new WeakMap()));
    const read = new ReachRead(entities, args, this, walked);
    const input = stored === undefined ? read.queryKey(schema, args) : stored;
    if (input !== undefined && input !== INVALID) read.unvisit(schema, input);
    // Work left for later by deep chains, each from an empty path.
    while (this.later.length > 0) this.later.pop()!();
  }
}

class ReachRead extends PlainRead {
  declare private readonly reached: Reached;
  declare private readonly walked: WeakMap<object, WeakSet<object>>;
  constructor(
    entities: Entities,
    args: readonly unknown[],
    reached: Reached,
    walked: WeakMap<object, WeakSet<object>>,
  ) {
    super(entities, args, Infinity);
    this.reached = reached;
    this.walked = walked;
  }

  override unvisit(schema: unknown, input: unknown): unknown {
    // A Lazy field reads its refs unresolved: follow them through its inner schema.
    return super.unvisit(isConstruct(schema) && schema.unresolved !== undefined ? schema.unresolved : schema, input);
  }

  /** A Query's `process` is not run: what it reads is its input, already walked. */
  override computed(): unknown {
    return undefined;
  }

  override row(table: string, key: string): ReturnType<PlainRead['row']> {
    this.reached.mark(table, key);
    return super.row(table, key);
  }

  override table(table: string): ReturnType<PlainRead['table']> {
    this.reached.wholeTables.add(table);
    return super.table(table);
  }

  override entity(table: string, key: string, build: Build, owner: object): unknown {
    this.reached.mark(table, key);
    const row = this.entities[table]?.[key];
    if (row === undefined || row === null) return super.entity(table, key, build, owner);
    if (this.path.length >= STEP_DEPTH * 4) {
      this.reached.later.push(() => void this.entity(table, key, build, owner));
      return key;
    }
    let walked = this.walked.get(owner);
    if (!walked) this.walked.set(owner, (walked = new WeakSet()));
    if (walked.has(row)) return key;
    walked.add(row);
    return super.entity(table, key, build, owner);
  }
}

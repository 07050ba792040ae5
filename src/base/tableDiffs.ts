/**
 * Which rows each write changed, remembered per table object, so a read can tell whether a table
 * that changed since it last ran changed in a row it read (docs/architecture.md, "Reads and the memo model"): the other nine lenses of
 * a Scalar table stay O(1) when one lens's cell is written.
 *
 * The reducer records, for each table a write replaced row by row, the table it came from and the
 * keys it touched. Nothing here holds a table: records are keyed weakly by the new table, name the
 * old one by a number, and link to at most MAX_CHAIN earlier records, so memory follows the live
 * tables. A table made any other way (a whole-table patch, a state loaded from elsewhere) has no
 * record, and reads then fall back to checking every row they read.
 */

interface TableDiff {
  /** The id of the table this one was made from. */
  readonly fromId: number;
  /** The keys set or removed between the two. */
  readonly keys: readonly string[];
  /** The record of the table this one was made from, while the chain is short. */
  readonly previous: TableDiff | undefined;
  readonly length: number;
}

const MAX_CHAIN = 32;
const ids = new WeakMap<object, number>();
const diffs = new WeakMap<object, TableDiff>();
let lastId = 0;

/**
 * A number naming `object` (a table, or the map of tables), the same for the same object and
 * never reused for another. A holder that only needs to know whether it still has the object it
 * saw keeps this number instead of the object (or a WeakRef to it, which keeps its target alive
 * until the end of the job that made or read it).
 */
export function tableId(object: object): number {
  let id = ids.get(object);
  if (id === undefined) ids.set(object, (id = ++lastId));
  return id;
}

/** Records that `to` is `from` with `keys` set or removed. */
export function recordTableDiff(from: object, to: object, keys: readonly string[]): void {
  const before = diffs.get(from);
  const linked = before !== undefined && before.length < MAX_CHAIN;
  diffs.set(to, {
    fromId: tableId(from),
    keys,
    previous: linked ? before : undefined,
    length: linked ? before.length + 1 : 1,
  });
}

/**
 * The keys that differ between the table named `seenId` (its `tableId`) and `now`, when `now` was
 * made from it by recorded writes (at most `limit` keys); `undefined` when that is not known.
 */
export function changedKeysSince(seenId: number, now: object, limit: number): string[] | undefined {
  const keys: string[] = [];
  for (let diff = diffs.get(now); diff !== undefined; diff = diff.previous) {
    for (const key of diff.keys) keys.push(key);
    if (keys.length > limit) return undefined;
    if (diff.fromId === seenId) return keys;
  }
  return undefined;
}

/**
 * The rows one write walk queued, by table and key, in document order, and how a row met again
 * in the same write merges into the one queued: in document order, the later one winning, with no
 * time check (docs/Entity.md). normalize.ts walks; rowPatches.ts turns these rows into patches.
 */

import type { RowChecker } from '../base/checkRow.js';
import { hasOwn } from '../base/dict.js';
import type { Row } from '../base/state.js';
import type { RowPolicy } from '../schema/contract.js';
import { Entity } from '../schema/Entity.js';
import { mergeDefined, withoutUndefined } from './rowObjects.js';

/**
 * A row one write queued. `row` is `undefined` while its entity is placed but not yet written;
 * `owned` says the walk made the object and nothing else holds it (merged and frozen in place).
 */
export interface PendingRow {
  readonly key: string;
  row: Row | undefined;
  policy: RowPolicy | undefined;
  owned: boolean;
  /**
   * Every field of `row` is a checked copy (RowChecker.field), in an object the walk built field
   * by field: it is frozen as it is. (Not a spread's copy: V8 freezes those slowly.)
   */
  checked: boolean;
}

/** Entity's own merge: rows merged by it are new objects of the two rows' fields. */
const defaultMerge = Entity.merge;

export class PendingRows {
  readonly tables = new Map<string, Map<string, PendingRow>>();

  /** The rows queued for `table` (made empty if none: the table then exists after the write). */
  table(table: string): Map<string, PendingRow> {
    let rows = this.tables.get(table);
    if (!rows) this.tables.set(table, (rows = new Map()));
    return rows;
  }

  /** The row of `table` `key`, placed (unwritten) if it is not queued yet: tables keep the response's order. */
  place(table: string, key: string): PendingRow {
    const rows = this.table(table);
    let placed = rows.get(key);
    if (placed === undefined)
      rows.set(key, (placed = { key, row: undefined, policy: undefined, owned: false, checked: false }));
    return placed;
  }

  /** The row queued for `table` `key`, if written, now held by someone else: later writes of it merge into a new object. */
  handOut(table: string, key: string): Row | undefined {
    const pending = this.tables.get(table)?.get(key);
    if (pending?.row === undefined) return undefined;
    pending.owned = false;
    return pending.row;
  }

  /** The keys of `table`: `stored`'s, then the ones this write adds. */
  keys(table: string, stored: Readonly<Record<string, Row>> | undefined): string[] {
    const keys = stored ? Object.keys(stored) : [];
    const pending = this.tables.get(table);
    if (pending) {
      for (const row of pending.values())
        if (row.row !== undefined && (!stored || !hasOwn(stored, row.key))) keys.push(row.key);
    }
    return keys;
  }

  /** Queues `row` (into `placed`, the row of `table` `key`, when the caller has it at hand). */
  queue(
    placed: PendingRow | undefined,
    table: string,
    key: string,
    row: Row,
    policy: RowPolicy,
    owned: boolean,
    checked: boolean,
  ): void {
    const incoming = row !== null && !Array.isArray(row) ? withoutUndefined(row) : row;
    let earlier = placed;
    if (earlier === undefined) {
      const rows = this.table(table);
      earlier = rows.get(key);
      if (earlier === undefined) {
        rows.set(key, { key, row: incoming, policy, owned: owned || incoming !== row, checked });
        return;
      }
    }
    if (earlier.row === undefined) {
      // Placed when its entity was entered, written now.
      earlier.row = incoming;
      earlier.policy = policy;
      earlier.owned = owned || incoming !== row;
      earlier.checked = checked;
      return;
    }
    const before = earlier.row;
    if (before !== null && incoming !== null && !Array.isArray(before) && !Array.isArray(incoming)) {
      // The default merge, into a row this walk made and nobody else holds, is done in place:
      // a row repeated across a response (a shared author) then costs no new object per mention.
      if (earlier.owned && policy.merge === defaultMerge) {
        mergeDefined(before, incoming); // (incoming has no undefined field left)
        earlier.checked &&= checked;
      } else {
        earlier.row = policy.merge(before, incoming);
        earlier.owned = policy.merge === defaultMerge;
        earlier.checked = false;
      }
    } else {
      earlier.row = incoming;
      earlier.owned = owned || incoming !== row;
      earlier.checked = checked;
    }
    earlier.policy = policy;
  }

  /**
   * Merges `input`'s defined fields into the row queued for `table` `key` when it is the walk's
   * own row, queued under `policy` and merged by Entity's default (NormalizeDelegate.mergeRepeat);
   * false otherwise. (Two classes may share a table: the later mention's policy decides how the
   * row meets the stored one, so a row queued under another is left to the full walk.)
   */
  mergeRepeat(table: string, key: string, input: object, policy: RowPolicy, checker: RowChecker): boolean {
    const placed = this.tables.get(table)?.get(key);
    const row = placed?.row;
    if (
      placed === undefined ||
      !placed.owned ||
      placed.policy !== policy ||
      policy.merge !== defaultMerge ||
      typeof row !== 'object' ||
      row === null ||
      Array.isArray(row)
    )
      return false;
    mergeDefined(row, input, placed.checked ? (value, field) => checker.field(value, table, key, field) : undefined);
    return true;
  }
}

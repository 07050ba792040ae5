/**
 * One row with the patches inside it applied: what the optimistic overlay and the pages record
 * need of a write that edits a row item by item.
 */

import type { Patch } from '../../base/patch.js';
import { applyPatches } from './applyPatches.js';

/**
 * `row` with `patches` (each a path into the row: `[map, table, key, ...inside]`) applied,
 * copy-on-write and frozen like every stored value.
 */
export function patchRow(row: unknown, patches: readonly Patch[]): unknown {
  // (The reducer's own applier, over a one-row table: list items are inserted and removed as the reducer would.)
  const shifted = patches.map(patch => ({ ...patch, path: ['entities', 't', 'r', ...patch.path.slice(3)] }));
  return applyPatches({ entities: { t: { r: row } } }, shifted).entities.t!.r;
}

/** Collects forward patches with their inverses, so every write can be undone exactly. */

import { isObject } from '../base/dict.js';
import type { Patch } from '../base/patch.js';

export class PatchList {
  readonly patches: Patch[] = [];
  private readonly undo: Patch[] = [];

  /** Records `patch` with the patch that undoes it. */
  private record(patch: Patch, inverse: Patch): void {
    this.patches.push(patch);
    this.undo.push(inverse);
  }

  /** Sets `path` to `value`; `previous` is the value there now (`undefined` when absent). */
  set(path: (string | number)[], value: unknown, previous: unknown): void {
    if (previous === undefined) this.insertItem(path, value);
    else this.record({ op: 'replace', path, value }, { op: 'replace', path, value: previous });
  }

  /** Removes `path`; `previous` is the value there now. */
  remove(path: (string | number)[], previous: unknown): void {
    if (previous !== undefined) this.removeItem(path, previous);
  }

  /** Inserts `value` into a list at the path's last step (an index); adds `path` outside a list. */
  insertItem(path: (string | number)[], value: unknown): void {
    this.record({ op: 'add', path, value }, { op: 'remove', path });
  }

  /** Removes the list item at the path's last step (an index); `previous` is the item there now. */
  removeItem(path: (string | number)[], previous: unknown): void {
    this.record({ op: 'remove', path }, { op: 'add', path, value: previous });
  }

  /** The inverse patches, in the order that undoes the forward list. */
  get inversePatches(): Patch[] {
    return this.undo.slice().reverse();
  }

  /** The write these patches make, after `earlier`'s patches when given (one write, undone in reverse). */
  written(earlier?: Written): Written {
    return earlier
      ? {
          patches: [...earlier.patches, ...this.patches],
          inversePatches: [...this.inversePatches, ...earlier.inversePatches],
        }
      : { patches: this.patches, inversePatches: this.inversePatches };
  }
}

/** Forward patches and their inverses. */
export interface Written {
  patches: Patch[];
  inversePatches: Patch[];
}

/**
 * Patches that turn the list `before` (stored at `path`) into `after`: when `after` is `before`
 * with items inserted or removed in one place (a push, an unshift, a removal), one patch per
 * item changed, so the action grows with the items, not with the list; otherwise one patch that
 * replaces the list.
 */
export function listPatches(
  list: PatchList,
  path: (string | number)[],
  before: readonly unknown[],
  after: readonly unknown[],
): void {
  let prefix = 0;
  const shorter = Math.min(before.length, after.length);
  while (prefix < shorter && sameItem(before[prefix], after[prefix])) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && sameItem(before[before.length - 1 - suffix], after[after.length - 1 - suffix]))
    suffix++;
  const removed = before.length - prefix - suffix;
  const inserted = after.length - prefix - suffix;
  if (removed > 0 && inserted > 0) {
    list.set(path, after, before);
    return;
  }
  for (let i = 0; i < removed; i++) list.removeItem([...path, prefix], before[prefix + i]);
  for (let i = 0; i < inserted; i++) list.insertItem([...path, prefix + i], after[prefix + i]);
}

/** Items of a stored list: refs (strings) or plain JSON values (polymorphic refs, raw members). */
function sameItem(a: unknown, b: unknown): boolean {
  return a === b || (isObject(a) && JSON.stringify(a) === JSON.stringify(b));
}

/** Collects forward patches with their inverses, so every write can be undone exactly. */

import type { Patch } from '../shared/patch.js';

export class PatchList {
  readonly patches: Patch[] = [];
  private readonly undo: Patch[] = [];

  /** Sets `path` to `value`; `previous` is the value there now (`undefined` when absent). */
  set(path: (string | number)[], value: unknown, previous: unknown): void {
    if (previous === undefined) {
      this.patches.push({ op: 'add', path, value });
      this.undo.push({ op: 'remove', path });
    } else {
      this.patches.push({ op: 'replace', path, value });
      this.undo.push({ op: 'replace', path, value: previous });
    }
  }

  /** Removes `path`; `previous` is the value there now. */
  remove(path: (string | number)[], previous: unknown): void {
    if (previous === undefined) return;
    this.patches.push({ op: 'remove', path });
    this.undo.push({ op: 'add', path, value: previous });
  }

  /** The inverse patches, in the order that undoes the forward list. */
  get inversePatches(): Patch[] {
    return this.undo.slice().reverse();
  }
}

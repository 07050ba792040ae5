/**
 * `cache.set(schema, ...args, updater)` (docs/store.md, "Updaters"): the updater receives an
 * Immer draft of the cached value and may change it in place or return a new value, as with
 * Immer's `produce`. Only what it changed is written (no patch for a row it left alone, and no
 * expiry moved forward for it either).
 */

import { immerable, produce } from 'immer';
import type { Patch } from '../shared/patch.js';
import { Entity } from '../schema/Entity.js';
import type { WritePayload } from './actions.js';

/**
 * Runs `updater` over a draft of `current` and returns the next value, or undefined when it
 * changed nothing (nothing is then written).
 */
export function draftUpdate(current: unknown, updater: (draft: any) => unknown): unknown {
  const base = draftable(current);
  // A value that is no object (a Scalar cell's number) cannot be drafted: the updater's result is the value.
  if (typeof base !== 'object' || base === null) return updater(base);
  const next = produce(base, updater as (draft: unknown) => void);
  return next === base ? undefined : next;
}

/**
 * The value the updater drafts. What the cache reads back is frozen, and its entities are class
 * instances Immer would not draft: each is copied once into an unfrozen object of the same class
 * that Immer treats as draftable (the `immerable` mark is own and not enumerable, so it is never
 * stored). Lists and plain objects are copied; other values (a Date) are kept as they are.
 */
function draftable(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(draftable);
  const proto: unknown = Object.getPrototypeOf(value);
  const isEntity = value instanceof Entity;
  if (!isEntity && proto !== Object.prototype && proto !== null) return value;
  const copy = Object.create(proto as object | null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, {
      value: draftable((value as Record<string, unknown>)[key]),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  if (isEntity) Object.defineProperty(copy, immerable, { value: true, configurable: true });
  return copy;
}

/**
 * Keeps a write's meta patches only for the rows whose content it changed: an updater that
 * edits one post of a list writes that post, not a new expiry for every post it left alone. (A
 * write over most of a table writes its meta as one table; that becomes one patch per changed row.)
 */
export function changedRowsOnly(payload: WritePayload): WritePayload {
  const changed = new Map<string, Set<string> | 'all'>();
  for (const { path } of payload.patches) {
    if (path[0] !== 'entities' || path.length < 2) continue;
    const table = String(path[1]);
    const keys = changed.get(table);
    if (path.length === 2) changed.set(table, 'all');
    else if (keys === undefined) changed.set(table, new Set([String(path[2])]));
    else if (keys !== 'all') keys.add(String(path[2]));
  }
  const patches: Patch[] = [];
  const inversePatches: Patch[] = [];
  for (const patch of payload.patches) {
    const { path } = patch;
    const keys = path[0] === 'entitiesMeta' ? changed.get(String(path[1])) : 'all';
    if (keys === 'all') patches.push(patch);
    else if (keys === undefined) continue;
    else if (path.length > 2) {
      if (keys.has(String(path[2]))) patches.push(patch);
    } else {
      // The meta table written whole: only the changed rows' entries, from the new table.
      const before = payload.inversePatches.find(undo => samePath(undo.path, path))?.value as
        Record<string, unknown> | undefined;
      const after = patch.value as Record<string, unknown>;
      for (const key of keys) {
        const row = [...path, key];
        const previous = before?.[key];
        patches.push({ op: previous === undefined ? 'add' : 'replace', path: row, value: after[key] });
        inversePatches.push(
          previous === undefined ? { op: 'remove', path: row } : { op: 'replace', path: row, value: previous },
        );
      }
    }
  }
  for (const undo of payload.inversePatches) {
    const { path } = undo;
    const keys = path[0] === 'entitiesMeta' ? changed.get(String(path[1])) : 'all';
    if (keys === 'all' || (keys !== undefined && path.length > 2 && keys.has(String(path[2]))))
      inversePatches.push(undo);
  }
  return { patches, inversePatches };
}

function samePath(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((step, i) => step === b[i]);
}

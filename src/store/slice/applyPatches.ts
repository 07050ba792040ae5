/**
 * The reducer's patch applier: Immer's patch format, applied through Immer's `produce` (a private
 * instance that freezes nothing itself), so every container on a patched path is copied once per
 * write, everything else keeps its identity, and the input state is never changed.
 *
 * Not through Immer's own `applyPatches`: it deep-copies every patch value (a first load's table
 * of thousands of rows copied again, then frozen again), its copy turns a row's `__proto__` field
 * into the copy's prototype, and it refuses paths through `__proto__` and `constructor`, which are
 * ordinary pks here. So each path is walked here: a key is set or deleted through the draft, and
 * a list item is inserted, replaced or removed on a copy of the list (see patchList). The slice's
 * maps and tables are null-prototype objects (docs/architecture.md, "State shape"), where those
 * keys are plain own properties for the draft too. The one key a draft cannot hold as data is
 * `__proto__` in an object that has a prototype (a row's field): a patch to or through it is
 * refused (the cache writes such a row whole).
 *
 * A patch list that does not fit the slice (a hand-written action, an action replayed by DevTools
 * onto a state that lacks what it expects) is refused whole: `applyPatches` throws INVALID_ACTION
 * before anything it returns could hold a part of it (Immer drops the draft).
 */

import { current, Immer, isDraft, isDraftable } from 'immer';
import { isDevelopment } from '../../base/env.js';
import { describe, type DevText, ErrorCode, setupError } from '../../base/errors.js';
import type { Patch } from '../../base/patch.js';
import type { CacheState } from '../../base/state.js';
import { recordTableDiff } from '../../base/tableDiffs.js';
import { checkSliceShape, deepFreeze, MAP_NAMES, toLiveMap, toLiveSlice } from './sliceShape.js';

type Container = Record<string | number, unknown>;

/** Freezing is done here: Immer's own would freeze the slice and its maps too (see below). */
const immer = /* @__PURE__ */ new Immer({ autoFreeze: false });

export function applyPatches<S>(state: S, patches: readonly Patch[]): S {
  if (!Array.isArray(patches))
    refuse(process.env.NODE_ENV !== 'production' && `payload.patches is ${describe(patches)}, not an array of patches`);
  for (const patch of patches) checkPatch(patch);
  let root: unknown = state;
  // The state the patches after the last whole-slice replacement start from.
  let base: unknown = state;
  let from = 0;
  const made: Made = { stored: [], lists: new Set() };
  for (let i = 0; i < patches.length;) {
    if (patches[i]!.path.length === 0) {
      root = base = toLiveSlice(patches[i]!.value as CacheState, refuse);
      from = ++i;
      continue;
    }
    root = immer.produce(root, (draft: Container) => {
      i = applyFrom(draft, patches, i, made);
      // Frozen before Immer finishes the draft, which would otherwise look through each for drafts.
      for (const list of made.lists) Object.freeze(list);
      made.lists.clear();
    });
  }
  recordDiffs(state, root, patches);
  // The store owns what it holds, in every build (as Immer freezes what it produces): a mutation
  // fails loudly instead of changing the state without an action. Row values arrive frozen from
  // the normalizer; hand-made patch values are frozen here, deeply.
  freezeCopies(base, root, patches, from);
  for (const value of made.stored) deepFreeze(value);
  return root as S;
}

/** What this write made: values to freeze, and the list copies it changes in place. */
interface Made {
  readonly stored: unknown[];
  readonly lists: Set<unknown[]>;
}

/**
 * Applies patches from `start` on, up to a whole-slice replacement or a patch into a value this
 * draft was given by an earlier patch (Immer drafts only what it started from: such a patch runs
 * in the next `produce`, where that value is part of the base). The index it stopped at.
 */
function applyFrom(draft: Container, patches: readonly Patch[], start: number, made: Made): number {
  next: for (let i = start; i < patches.length; i++) {
    const patch = patches[i]!;
    const { path } = patch;
    if (path.length === 0) return i;
    let parent = draft;
    for (let d = 0; d < path.length - 1; d++) {
      const key = checkKey(parent, path[d]!);
      if (d === path.length - 2) {
        // The value there as it stands, read without drafting it: a list is changed natively.
        const held: unknown = Reflect.getOwnPropertyDescriptor(parent, key)?.value;
        if (Array.isArray(held)) {
          patchList(parent, key, held, patch, made);
          continue next;
        }
      }
      const child = parent[key];
      if (typeof child !== 'object' || child === null || !isDraft(child)) {
        if (i > start && isDraftable(child)) return i;
        refuse(
          process.env.NODE_ENV !== 'production' &&
            `its path ${JSON.stringify(path.slice(0, d + 1))} passes through ${describe(child)}`,
        );
      }
      parent = child as Container;
    }
    const key = checkKey(parent, path[path.length - 1]!);
    if (patch.op === 'remove') delete parent[key];
    else {
      const value = path.length <= 2 ? toLiveMap(patch.value, path) : patch.value;
      parent[key] = value;
      if (path.length > 1) made.stored.push(value);
    }
  }
  return patches.length;
}

/**
 * An item patch of a list, made on a copy of the list that this write owns (one per list per
 * write). Not through Immer's draft of the list: an item inserted at the front would cost a
 * proxy trap per item after it (about 30 times the native splice on a 10,000-item list).
 */
function patchList(holder: Container, key: string | number, held: unknown[], patch: Patch, made: Made): void {
  let list = held;
  if (!made.lists.has(list)) {
    list = (isDraft(held) ? (current(held) as unknown[]) : held).slice();
    made.lists.add(list);
    holder[key] = list;
  }
  const step = patch.path[patch.path.length - 1];
  const index = step === '-' ? list.length : Number(step);
  const limit = patch.op === 'add' ? list.length : list.length - 1;
  if (!Number.isInteger(index) || index < 0 || index > limit)
    refuse(
      process.env.NODE_ENV !== 'production' && `a patch reaches index ${String(step)} of a list of ${list.length}`,
    );
  if (patch.op === 'add') list.splice(index, 0, patch.value);
  else if (patch.op === 'replace') list[index] = patch.value;
  else list.splice(index, 1);
  if (patch.op !== 'remove') made.stored.push(patch.value);
}

/**
 * `key`, unless it is `__proto__` in an object with a prototype (a row's field): a draft would
 * take it for the prototype, not data. In the null-prototype maps and tables it is an ordinary key.
 */
function checkKey(parent: object, key: string | number): string | number {
  if (key === '__proto__' && Object.getPrototypeOf(parent) !== null)
    refuse(
      process.env.NODE_ENV !== 'production' &&
        'a patch reaches a "__proto__" field inside a row; such a row is written whole (a patch of the row)',
    );
  return key;
}

/**
 * Freezes the containers this write made on the patched paths (Immer's copies, and values later
 * patches went into), but not the slice and its maps (depth 0 and 1): they are new on nearly every
 * write, and RTK's serializability check re-walks every frozen container it has not seen before,
 * all the way down, so a frozen root would cost a walk of the whole cache per action.
 */
function freezeCopies(base: unknown, root: unknown, patches: readonly Patch[], from: number): void {
  // (A set: testing a large table with Object.isFrozen costs a look at each of its keys.)
  const made = new Set<object>();
  for (let i = from; i < patches.length; i++) {
    const { path } = patches[i]!;
    let was = base as Container | undefined;
    let now = root as Container;
    for (let d = 0; d < path.length - 1; d++) {
      was = typeof was === 'object' && was !== null ? (was[path[d]!] as Container | undefined) : undefined;
      now = now[path[d]!] as Container;
      if (typeof now !== 'object' || now === null) break;
      if (d > 0 && now !== was) made.add(now);
    }
  }
  for (const container of made) Object.freeze(container);
}

function refuse(what: DevText): never {
  throw setupError(
    ErrorCode.INVALID_ACTION,
    process.env.NODE_ENV !== 'production' && [
      `A cache action could not be applied: ${what}. The state was left as it was.`,
      'Dispatch writes through the cache (cache.set, cache.fetch, ...); an action replayed out of order (a skipped action in DevTools) can leave later ones without what they patch.',
    ],
  );
}

const OPS = new Set(['add', 'replace', 'remove']);

/** The patch's path, once the patch is known to be a well-formed write into the slice. */
function checkPatch(patch: Patch): Patch['path'] {
  // Development names a patch that is no object; production lets `patch.op` throw on null, and a
  // primitive fails the op test: refused whole either way (docs/production.md).
  if (
    // (The cached flag first: `process.env` is slow to read in Node, and this runs per patch.)
    (isDevelopment() && process.env.NODE_ENV !== 'production' && (typeof patch !== 'object' || patch === null)) ||
    !OPS.has(patch.op) ||
    !Array.isArray(patch.path)
  ) {
    refuse(process.env.NODE_ENV !== 'production' && `a patch is ${describe(patch)}, not { op, path, value }`);
  }
  const { path, op } = patch;
  for (const step of path)
    if (typeof step !== 'string' && typeof step !== 'number')
      refuse(process.env.NODE_ENV !== 'production' && `a patch path holds ${describe(step)}`);
  if (path.length === 0) {
    if (op === 'remove') refuse(process.env.NODE_ENV !== 'production' && 'a patch removes the whole slice');
    return path;
  }
  const name = path[0];
  if (name === 'lastReset') {
    if (path.length !== 1 || op === 'remove' || typeof patch.value !== 'number' || !Number.isFinite(patch.value)) {
      refuse(
        process.env.NODE_ENV !== 'production' &&
          `lastReset must stay a finite number, but a patch sets it to ${describe(patch.value)}`,
      );
    }
    return path;
  }
  if (!MAP_NAMES.has(name as string))
    refuse(process.env.NODE_ENV !== 'production' && `a patch writes "${String(name)}", which is not part of the slice`);
  if (op === 'remove') {
    if (path.length === 1) refuse(process.env.NODE_ENV !== 'production' && `a patch removes the map "${String(name)}"`);
    return path;
  }
  const { value } = patch;
  const isMap = typeof value === 'object' && value !== null && !Array.isArray(value);
  const tables = name === 'entities' || name === 'entitiesMeta';
  if (path.length === 1) checkSliceShape({ ...emptySlice, [name as string]: value }, refuse);
  else if (path.length === 2 && tables && !isMap)
    refuse(
      process.env.NODE_ENV !== 'production' &&
        `a table (${String(name)}.${String(path[1])}) would become ${describe(value)}`,
    );
  else if (path.length === 2 && name === 'meta' && !isMap)
    refuse(process.env.NODE_ENV !== 'production' && `meta["${String(path[1])}"] would become ${describe(value)}`);
  else if (path.length === 3 && name === 'entitiesMeta' && !isMap)
    refuse(process.env.NODE_ENV !== 'production' && `the meta of a row would become ${describe(value)}`);
  else if (path.length === 3 && name === 'entities' && (typeof value !== 'object' || value === undefined)) {
    refuse(
      process.env.NODE_ENV !== 'production' &&
        `a row (${String(path[1])} "${String(path[2])}") would become ${describe(value)}`,
    );
  }
  return path;
}

const emptySlice = { entities: {}, entitiesMeta: {}, endpoints: {}, meta: {}, lastReset: 0 };

/** Tells the read memo which rows of which tables this write changed (tableDiffs.ts). */
function recordDiffs(before: unknown, after: unknown, patches: readonly Patch[]): void {
  const keysByTable = new Map<string, string[] | null>();
  for (const { path } of patches) {
    if (path.length === 0) return;
    if (path[0] !== 'entities') continue;
    const table = path[1] as string | undefined;
    if (table === undefined) return;
    // A table written whole is not a change of rows by key; a path into a row (an item pushed
    // into a list) changes that row.
    if (path.length < 3) keysByTable.set(table, null);
    else {
      const keys = keysByTable.get(table);
      if (keys === undefined) keysByTable.set(table, [String(path[2])]);
      else if (keys !== null) keys.push(String(path[2]));
    }
  }
  const from = (before as { entities?: Record<string, object | undefined> }).entities;
  const to = (after as { entities?: Record<string, object | undefined> }).entities;
  for (const [table, keys] of keysByTable) {
    const previous = from?.[table];
    const next = to?.[table];
    if (keys && previous && next && previous !== next) recordTableDiff(previous, next, keys);
  }
}

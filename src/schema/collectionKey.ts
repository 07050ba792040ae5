/**
 * Collection pks and the matching rules of creates and moves (docs/Collection.md).
 *
 * A pk is the canonical JSON of the object `argsKey` (or `nestKey`) returns: keys sorted at every
 * level, numbers and booleans as strings, `undefined` dropped. `?group=react&page=1` and
 * `{ page: 1, group: 'react' }` are then one list, whatever produced the args.
 */

import { hasOwn, isObject, isRecord } from '../base/dict.js';
import { describe, setupError } from '../base/errors.js';
import { ClearingMap } from '../base/Lru.js';

export type NonFilterArgumentKeys = RegExp | readonly string[] | ((key: string) => boolean);

/**
 * Refuses Collection options of the wrong kind where the Collection is made: a wrong `argsKey`
 * would otherwise surface as a TypeError at the first write, far from its cause. Options are
 * code, so development meets them first and production leaves the check out (docs/production.md).
 */
export function checkCollectionOptions(given: unknown): void {
  if (!isObject(given)) throw badOption('object', given, 'an object of options');
  const options = given as Record<string, unknown>;
  for (const name of ['argsKey', 'nestKey', 'createCollectionFilter']) {
    const value = options[name];
    if (value !== undefined && typeof value !== 'function') throw badOption(name, value, 'a function of the args');
  }
  const keys = options.nonFilterArgumentKeys;
  const fits =
    keys === undefined ||
    typeof keys === 'function' ||
    keys instanceof RegExp ||
    (Array.isArray(keys) && keys.every(key => typeof key === 'string'));
  if (!fits) throw badOption('nonFilterArgumentKeys', keys, 'a RegExp, a list of param names or a function');
}

/** `addWith` and `moveWith` take a merge function and, optionally, a filter maker (development only, as options). */
export function checkMerge(merge: unknown, createCollectionFilter: unknown): void {
  if (typeof merge !== 'function') throw badOption('merge', merge, 'a function (existing, incoming) => the new refs');
  checkCollectionOptions({ createCollectionFilter });
}

/** `merge`, checking what it returns: a list for a list, a map for a map (development only). */
export function checkedMerge(merge: (existing: any, incoming: any) => any, key: string) {
  return (row: object, incoming: object): object => {
    const next: unknown = merge(row, incoming);
    if (Array.isArray(row) ? Array.isArray(next) : isRecord(next)) return next as object;
    throw setupError(
      'INVALID_SCHEMA',
      process.env.NODE_ENV !== 'production' && [
        `Collection ${key}'s merge (addWith, moveWith) must return the new ${Array.isArray(row) ? 'list' : 'map'} of refs, but returned ${describe(next)}.`,
        'Return the stored refs with the incoming ones placed, e.g. (existing, incoming) => [...incoming, ...existing].',
      ],
    );
  };
}

/** What a filter maker returned, when it is the test of a list's key; INVALID_SCHEMA otherwise. */
export function checkFilter(filter: unknown, key: string): void {
  if (typeof filter === 'function') return;
  throw setupError(
    'INVALID_SCHEMA',
    process.env.NODE_ENV !== 'production' && [
      `Collection ${key}'s createCollectionFilter(...args) must return a test of a list's key, but returned ${describe(filter)}.`,
      'Return a function: (...args) => collectionKey => collectionKey.userId === String(args[0].userId).',
    ],
  );
}

function badOption(name: string, value: unknown, expected: string): Error {
  return setupError(
    'INVALID_SCHEMA',
    process.env.NODE_ENV !== 'production' && [
      `${name === 'object' ? "A Collection's options" : `The Collection's ${name}`} must be ${expected}, but received ${describe(value)}.`,
      "Pass it as docs/Collection.md shows, e.g. new Collection([Post], { argsKey: ({ group }) => ({ group }), nonFilterArgumentKeys: ['orderBy'] }).",
    ],
  );
}

export function nonFilterPredicate(option: NonFilterArgumentKeys): (key: string) => boolean {
  if (typeof option === 'function') return option;
  if (option instanceof RegExp) {
    // A global or sticky RegExp keeps state between test() calls; a copy without those flags does not.
    const pattern = new RegExp(option.source, option.flags.replace(/[gy]/g, ''));
    return key => pattern.test(key);
  }
  const names = new Set(option);
  return key => names.has(key);
}

/**
 * The canonical form of a pk value: numbers and booleans become strings, `null` stays, `undefined`
 * (and functions and symbols, which JSON cannot hold) count as absent.
 */
function canonical(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object': {
      if (value === null) return null;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
        return canonical((value as { toJSON(): unknown }).toJSON());
      if (Array.isArray(value)) return value.map(item => canonical(item) ?? null);
      const out: Record<string, unknown> = Object.create(null);
      for (const key of Object.keys(value).sort()) {
        const item = canonical((value as Record<string, unknown>)[key]);
        if (item !== undefined) out[key] = item;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** The pk string of a pk object: its canonical form as JSON, keys in sorted order at every level. */
export function serializePk(pkObject: object): string {
  return serialize(canonical(pkObject));
}

function serialize(value: unknown): string {
  if (!isObject(value)) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(serialize).join(',')}]`;
  // Keys are written in sorted order explicitly: JSON.stringify would put integer-like keys first.
  const parts: string[] = [];
  for (const key of Object.keys(value).sort())
    parts.push(`${JSON.stringify(key)}:${serialize((value as Record<string, unknown>)[key])}`);
  return `{${parts.join(',')}}`;
}

/**
 * Parsed pks, shared by every op: a move of n items, or a series of pushes, matches the same
 * stored keys again and again. Ops scan whole tables in order, so this is a map emptied when it
 * outgrows its bound (base/Lru.ts). The parsed objects are only ever read.
 */
const parsed = new ClearingMap<string, Record<string, unknown> | null>(50_000);

/** The pk object back from a stored row key; `undefined` for a key this module did not write. */
export function parsePk(rowKey: string): Record<string, unknown> | undefined {
  let pkObject = parsed.get(rowKey);
  if (pkObject === undefined) {
    pkObject = null;
    try {
      const value: unknown = JSON.parse(rowKey);
      if (isRecord(value)) pkObject = value as Record<string, unknown>;
    } catch {
      // Not a key this module wrote: it matches nothing.
    }
    parsed.set(rowKey, pkObject);
  }
  return pkObject ?? undefined;
}

/**
 * A stored row matches when each of its filter keys has an equal canonical value in some
 * source. Rows with fewer keys match more (down to `{}`, which every create reaches); a filter
 * key the sources lack blocks the match; extra source keys never do. A list in a source also
 * matches a stored string equal to its items joined by commas, as data-client compares filter
 * values by their string form: an item with `tags: ['a']` reaches the list stored for
 * `{ tags: 'a' }` (docs/Collection.md).
 */
export function pkMatches(
  pkObject: Record<string, unknown>,
  sources: readonly unknown[],
  collection: { nonFilterArgumentKeys(key: string): boolean },
): boolean {
  for (const key of Object.keys(pkObject)) {
    if (collection.nonFilterArgumentKeys(key)) continue;
    const stored = pkObject[key];
    const wanted = serialize(stored);
    let found = false;
    for (const source of sources) {
      if (!isObject(source) || !hasOwn(source, key)) continue;
      const value = canonical((source as Record<string, unknown>)[key]);
      if (value === undefined) continue;
      if (serialize(value) === wanted || (typeof stored === 'string' && listText(value) === stored)) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

/**
 * A canonical list as a string, the way data-client compares it (`String(['a', 'b'])` is
 * `'a,b'`): items joined by commas, `null` as nothing. Not a list, or a list holding lists or
 * objects: `undefined` (it then matches by its JSON only).
 */
function listText(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  let text = '';
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (item !== null && typeof item !== 'string') return undefined;
    text += (i === 0 ? '' : ',') + (item ?? '');
  }
  return text;
}

/** True when `params` has no defined keys (a `remove` with such params reaches every row, docs/Collection.md). */
export function hasNoDefinedKeys(params: unknown): boolean {
  if (!isObject(params)) return true;
  for (const key of Object.keys(params)) if ((params as Record<string, unknown>)[key] !== undefined) return false;
  return true;
}

/** Args without the page field: the args of the list the page belongs to. */
export function withoutField(args: readonly unknown[], field: string): unknown[] {
  const params = args[0];
  if (!isRecord(params)) return [...args];
  const { [field]: _page, ...rest } = params as Record<string, unknown>;
  return [rest, ...args.slice(1)];
}

export function pkOf(pkObject: unknown): string | undefined {
  return isRecord(pkObject) ? serializePk(pkObject) : undefined;
}

/**
 * Args as `argsKey` sees them: a read or write without params passes `{}`, so an `argsKey` that
 * destructures its params (`({ group }) => ({ group })`) works for the unfiltered list too.
 */
export function withParams(args: readonly unknown[]): readonly unknown[] {
  return args[0] === undefined ? [{}, ...args.slice(1)] : args;
}

/** The params object, copied, or `{}` when there is none. */
export function defaultArgsKey(...args: unknown[]): object {
  const params = args[0];
  if (params === undefined || params === null) return {};
  return isRecord(params) ? { ...params } : (params as object);
}

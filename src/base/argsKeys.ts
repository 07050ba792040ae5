/**
 * The memo keys of read args, remembered for the most common args: one params object with one
 * field (`{ id }`, `{ portfolio }`). Such args are found by the field and its value, two lookups
 * with no string built, and give the very same key string every time, whose hash the memo's maps
 * then have at hand: a memoized read under ten lenses in turn costs a few lookups each
 * (docs/benchmarks.md). Other args are keyed by `argsKey` as they come.
 */

import { isPlainRecord } from './dict.js';
import { argsKey } from './json.js';
import { ClearingMap } from './Lru.js';

/** Values remembered per field name; past it, the field's map starts empty. */
const VALUES_PER_FIELD = 1_000;
/** Field names remembered; past it, they start empty. */
const FIELDS = 100;

export class ArgsKeys {
  private readonly byField = new ClearingMap<string, ClearingMap<string | number, string>>(FIELDS);

  /** `argsKey(args)`. */
  of(args: readonly unknown[]): string {
    if (args.length !== 1) return argsKey(args);
    const params = args[0];
    // A class instance may serialize otherwise (its toJSON), and an array is no params object.
    if (!isPlainRecord(params)) return argsKey(args);
    const fields = Object.keys(params);
    if (fields.length !== 1) return argsKey(args);
    const field = fields[0]!;
    const value = (params as Record<string, unknown>)[field];
    if (typeof value !== 'string' && typeof value !== 'number') return argsKey(args);
    let keys = this.byField.get(field);
    const known = keys?.get(value);
    if (known !== undefined) return known;
    const key = argsKey(args);
    if (!keys) this.byField.set(field, (keys = new ClearingMap(VALUES_PER_FIELD)));
    keys.set(value, key);
    return key;
  }
}

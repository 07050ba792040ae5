/**
 * Rows go into a Redux store that must stay plain JSON: a value that JSON cannot hold (a function,
 * a class instance, NaN or Infinity), a circular structure or an absurdly deep one is rejected
 * here, before anything is written.
 *
 * What passes is copied: the store owns every object it holds, so a caller who later mutates the
 * object they wrote changes nothing in the state, and the store's copies are frozen in every
 * build (as Immer freezes what enters a draft) without freezing the caller's objects. One pass
 * both checks and copies; see docs/reliability.md for what it costs.
 */

import { isObject, setOwn } from './dict.js';
import { DEVELOPMENT } from './env.js';
import { describe, inputError, type DevText } from './errors.js';

/** Raw (schema-less) data nested deeper than this is rejected; JSON from real APIs is far shallower. */
export const RAW_DEPTH_LIMIT = 256;

/**
 * Returns `value` as the store may hold it: a frozen copy of every object and array in it,
 * without `undefined` properties (`undefined` array items become `null`), symbol keys or `-0`,
 * as JSON would write them. Throws on what JSON cannot hold.
 */
export function toJsonValue<T>(value: T, where: DevText): T {
  return checked(value, { where, rowKey: undefined, ancestors: [], keys: [] });
}

/**
 * `toJsonValue` for the rows of one write, one after another: the row's name is only built for
 * an error message, and one path is reused from row to row (a first load checks thousands of rows
 * and names none of them).
 */
export class RowChecker {
  private readonly path: Path = { where: false, rowKey: undefined, ancestors: [], keys: [] };

  /** The row `table` "`key`" as the store may hold it. */
  row<T>(value: T, table: string, key: string): T {
    const path = this.path;
    // A throw leaves the path's lists as they were: the write is over then, and so is this checker.
    if (DEVELOPMENT) {
      path.where = table;
      path.rowKey = key;
    }
    return checked(value, path);
  }

  /**
   * What `row` stores for one field of the row `table` "`key`": a checked copy of `value`
   * (`undefined` stays `undefined`). A walk that builds its rows from checked fields only has
   * them frozen as they are (normalize/rowPatches.ts), never copied a second time.
   */
  field(value: unknown, table: string, key: string, field: string): unknown {
    const path = this.path;
    if (DEVELOPMENT) {
      path.where = table;
      path.rowKey = key;
    }
    return visitItem(value, path, field, value);
  }
}

function checked<T>(value: T, path: Path): T {
  return isObject(value) ? (visitValue(value, path) as T) : checkPrimitive(value, path);
}

/** Where the walk is; the text of a path is only built for an error message (its names are kept in development only). */
interface Path {
  where: DevText;
  /** When set, `where` is a table and this the row's key. */
  rowKey: string | undefined;
  readonly ancestors: object[];
  readonly keys: Array<string | number>;
}

function nameOf(path: Path): string {
  const where = path.rowKey === undefined ? path.where : `${path.where} "${path.rowKey}"`;
  return where + path.keys.map(key => `.${key}`).join('');
}

function visitValue(value: object, path: Path): object {
  const { ancestors } = path;
  if (ancestors.includes(value)) {
    throw inputError(
      'UNEXPECTED_INPUT',
      process.env.NODE_ENV !== 'production' && [
        `${nameOf(path)} contains a circular reference; the cache stores plain JSON.`,
        'Break the cycle, or give the nested objects an Entity schema so they are stored by reference.',
      ],
    );
  }
  if (ancestors.length >= RAW_DEPTH_LIMIT) {
    throw inputError(
      'MAX_DEPTH_EXCEEDED',
      process.env.NODE_ENV !== 'production' && [
        `${nameOf(path)} nests deeper than ${RAW_DEPTH_LIMIT} levels.`,
        'Flatten the data, or describe the nested parts with schemas.',
      ],
    );
  }
  ancestors.push(value);
  let copy: object;
  if (Array.isArray(value)) {
    const items: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) items[i] = visitItem(value[i], path, i, null);
    copy = items;
  } else {
    checkPlainObject(value, path);
    // Object.keys leaves symbol keys out, as JSON.stringify does: they are never stored.
    const record = value as Record<string, unknown>;
    const fields: Record<string, unknown> = {};
    const keys = Object.keys(record);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const item = record[key];
      if (item !== undefined) setOwn(fields, key, visitItem(item, path, key, item));
    }
    copy = fields;
  }
  ancestors.pop();
  // Every object is copied, even one the store made and froze before (a value read back and
  // written again): remembering those in a WeakSet cost more (about 200 ns per object, and GC
  // work) than copying them.
  return Object.freeze(copy);
}

function visitItem(item: unknown, path: Path, key: string | number, ifUndefined: unknown): unknown {
  if (item === undefined) return ifUndefined;
  const object = isObject(item);
  if (
    !object &&
    typeof item !== 'number' &&
    typeof item !== 'function' &&
    typeof item !== 'symbol' &&
    typeof item !== 'bigint'
  )
    return item;
  // (The keys only name the value in development messages.)
  if (DEVELOPMENT) path.keys.push(key);
  const next = object ? visitValue(item, path) : checkPrimitive(item, path);
  if (DEVELOPMENT) path.keys.pop();
  return next;
}

function checkPlainObject(value: object, path: Path): void {
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return;
  throw inputError(
    'UNEXPECTED_INPUT',
    process.env.NODE_ENV !== 'production' && [
      `${nameOf(path)} holds ${describe(value)}; the cache stores plain JSON (objects, arrays, strings, numbers, booleans, null).`,
      `Convert it to plain data before writing.${value instanceof Date ? ' Store it as an ISO string and add the field to `static schema` as `Date` to read a Date back.' : ''}`,
    ],
  );
}

function checkPrimitive<T>(value: T, path: Path): T {
  const type = typeof value;
  if (type === 'number') {
    // JSON writes NaN and ±Infinity as null: stored, they would not read back the same.
    if (!Number.isFinite(value)) {
      throw inputError(
        'UNEXPECTED_INPUT',
        process.env.NODE_ENV !== 'production' && [
          `${nameOf(path)} holds the number ${String(value)}, which JSON cannot hold (it would become null); the cache stores plain JSON.`,
          'Send null (or leave the field out) for a missing number, or a string such as "Infinity" if the value matters.',
        ],
      );
    }
    // -0 is written as 0 by JSON; store what a round trip gives.
    return (value === 0 ? 0 : value) as T;
  }
  if (type === 'function' || type === 'symbol' || type === 'bigint') {
    throw inputError(
      'UNEXPECTED_INPUT',
      process.env.NODE_ENV !== 'production' && [
        `${nameOf(path)} holds ${describe(value)}; the cache stores plain JSON.`,
        'Convert it to a string or number before writing.',
      ],
    );
  }
  return value;
}

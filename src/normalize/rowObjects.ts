/** Row objects as one write walk queues them: merged and stripped of undefined fields. */

import { setOwn } from '../base/dict.js';

/** `{ ...target, ...source }` written into `target` (the same fields, in the same order). */
export function mergeInPlace(target: object, source: object): void {
  const into = target as Record<string, unknown>;
  const from = source as Record<string, unknown>;
  const keys = Object.keys(from);
  for (let i = 0; i < keys.length; i++) setOwn(into, keys[i]!, from[keys[i]!]);
}

/** `mergeInPlace(target, withoutUndefined(source))`, without the copy. */
export function mergeDefined(target: object, source: object): void {
  const into = target as Record<string, unknown>;
  const from = source as Record<string, unknown>;
  const keys = Object.keys(from);
  for (let i = 0; i < keys.length; i++) {
    const value = from[keys[i]!];
    if (value !== undefined) setOwn(into, keys[i]!, value);
  }
}

/** `mergeDefined`, with each value as `check` gives it (a checked copy: base/checkRow.ts). */
export function mergeChecked(target: object, source: object, check: (value: unknown, field: string) => unknown): void {
  const into = target as Record<string, unknown>;
  const from = source as Record<string, unknown>;
  const keys = Object.keys(from);
  for (let i = 0; i < keys.length; i++) {
    const value = from[keys[i]!];
    if (value !== undefined) setOwn(into, keys[i]!, check(value, keys[i]!));
  }
}

/** Undefined properties are never stored and never erase anything (docs/Entity.md). */
export function withoutUndefined(row: object): object {
  const record = row as Record<string, unknown>;
  for (const key in record) {
    if (record[key] === undefined) {
      const copy: Record<string, unknown> = {};
      for (const field of Object.keys(record)) {
        if (record[field] !== undefined) setOwn(copy, field, record[field]);
      }
      return copy;
    }
  }
  return row;
}

/** Row objects as one write walk queues them: merged and stripped of undefined fields. */

import { setOwn } from '../base/dict.js';

/**
 * `{ ...target, ...withoutUndefined(source) }` written into `target` (the same fields, in the same
 * order), each value as `check` gives it when there is one (a checked copy: base/checkRow.ts).
 */
export function mergeDefined(target: object, source: object, check?: (value: unknown, field: string) => unknown): void {
  const into = target as Record<string, unknown>;
  const from = source as Record<string, unknown>;
  const keys = Object.keys(from);
  for (let i = 0; i < keys.length; i++) {
    const value = from[keys[i]!];
    if (value !== undefined) setOwn(into, keys[i]!, check ? check(value, keys[i]!) : value);
  }
}

/** Undefined properties are never stored and never erase anything (docs/Entity.md). */
export function withoutUndefined(row: object): object {
  const record = row as Record<string, unknown>;
  for (const key in record) {
    if (record[key] === undefined) {
      const copy = {};
      mergeDefined(copy, record);
      return copy;
    }
  }
  return row;
}

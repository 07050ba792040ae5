/**
 * The outbox's entries as stored (docs/outbox.md, "What is stored"): a JSON list of `{ endpoint,
 * args }`, the endpoint by the name the app gave it. What comes back from storage is outside state:
 * each entry is checked as hydrated state is (plain JSON, finite numbers, no cycles, bounded depth),
 * and refused when it names no endpoint of the outbox or carries a key that could reach a prototype.
 */

import { toJsonValue } from '../../../base/checkRow.js';
import { hasOwn, isPlainRecord } from '../../../base/dict.js';
import { describe, inputError, type DevText } from '../../../base/errors.js';

/** One mutation waiting in the outbox, as stored: its endpoint's name and its args (JSON). */
export interface StoredEntry {
  readonly endpoint: string;
  readonly args: readonly unknown[];
}

/** Keys an app's code could turn into a prototype write (`Object.assign`, `merge`): never restored. */
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The entries of `text` (what storage held) that name an endpoint of `endpoints`, at most `cap`;
 * each one refused is told to `refuse` (UNEXPECTED_INPUT) and left out.
 */
export function restoredEntries(
  text: unknown,
  endpoints: object,
  cap: number,
  refuse: (error: Error) => void,
): StoredEntry[] {
  if (text === null || text === undefined) return [];
  let list: unknown;
  try {
    if (typeof text !== 'string') throw refused(`storage held ${describe(text)}, not a string`);
    list = JSON.parse(text);
    if (!Array.isArray(list)) throw refused(`it holds ${describe(list)}, not a list of entries`);
  } catch (error) {
    refuse(error instanceof SyntaxError ? refused('it is not JSON') : (error as Error));
    return [];
  }
  const entries: StoredEntry[] = [];
  for (let i = 0; i < list.length; i++) {
    if (entries.length === cap) {
      refuse(refused(`it holds ${list.length} entries, more than the outbox's ${cap}; the rest are left out`));
      break;
    }
    try {
      entries.push(entryOf(list[i], endpoints, `entry ${i}`));
    } catch (error) {
      refuse(error as Error);
    }
  }
  return entries;
}

/** One stored entry, checked and copied; UNEXPECTED_INPUT naming `where` when it cannot be sent. */
function entryOf(value: unknown, endpoints: object, where: string): StoredEntry {
  if (!isPlainRecord(value) || typeof value.endpoint !== 'string' || !Array.isArray(value.args))
    throw refused(`${where} is ${describe(value)}, not { endpoint, args }`);
  if (!hasOwn(endpoints, value.endpoint) || UNSAFE.has(value.endpoint))
    throw refused(`${where} names the endpoint "${value.endpoint}", which the outbox's endpoints do not hold`);
  const args = toJsonValue(value.args, `${where}'s args`) as unknown[];
  unsafeKey(args, `${where}'s args`);
  return { endpoint: value.endpoint, args };
}

/** Refuses a key that could reach a prototype, anywhere in `value` (checked JSON: no cycles). */
function unsafeKey(value: unknown, where: string): void {
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) {
    if (UNSAFE.has(key)) throw refused(`${where} hold the key "${key}"`);
    unsafeKey((value as Record<string, unknown>)[key], where);
  }
}

function refused(what: DevText): Error {
  return inputError(
    'UNEXPECTED_INPUT',
    process.env.NODE_ENV !== 'production' && [
      `The outbox could not restore what its storage held: ${what as string}. That entry was dropped, and nothing was written.`,
      'Only lenscache should write the outbox key of the storage; an endpoint the app renamed or removed must stay in outbox({ endpoints }) until its entries are sent.',
    ],
  );
}

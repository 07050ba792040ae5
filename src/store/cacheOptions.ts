/**
 * createCache's options that need a check beyond their type (docs/getting-started.md).
 */

import { describe, ErrorCode, setupError } from '../base/errors.js';

/** The default `gcTime`: five minutes, as TanStack Query. */
export const DEFAULT_GC_TIME = 5 * 60_000;

/** `createCache`'s `gcTime`, checked: milliseconds from 0 up, `Infinity` included. */
export function gcTimeOf(gcTime: unknown): number {
  if (gcTime === undefined) return DEFAULT_GC_TIME;
  if (typeof gcTime === 'number' && gcTime >= 0) return gcTime;
  throw setupError(
    ErrorCode.INVALID_OPTION,
    process.env.NODE_ENV !== 'production' && [
      `createCache({ gcTime }) takes milliseconds from 0 up (or Infinity), but received ${describe(gcTime)}.`,
      'Pass a number, e.g. createCache({ gcTime: 60_000 }), or Infinity to keep every response.',
    ],
  );
}

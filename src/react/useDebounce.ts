/** useDebounce: a value that follows another once it has stopped changing (docs/useDebounce.md). */

import { useEffect, useState } from 'react';
import { describe, setupError } from '../base/errors.js';
import { startTimer } from '../base/timers.js';

/**
 * Returns `value` once it has not changed for `delay` ms, and whether a newer value is waiting
 * (data-client's `useDebounce`). With `updatable` false the debounced value stays as it is.
 *
 * @example
 * ```tsx
 * const [query, typing] = useDebounce(text, 300);
 * const results = useSuspense(searchPosts, { query });
 * ```
 */
export function useDebounce<T>(value: T, delay: number, updatable = true): [value: T, pending: boolean] {
  // Checked in render, so a bad one reaches the error boundary rather than `setTimeout` (NaN: no wait).
  if (typeof delay !== 'number' || !(delay >= 0) || typeof updatable !== 'boolean') {
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        `useDebounce(value, delay, updatable) takes delay in milliseconds from 0 up and updatable true or false, but received delay ${describe(delay)} and updatable ${describe(updatable)}.`,
        'Write e.g. useDebounce(text, 300), or useDebounce(text, 300, false) to hold the value.',
      ],
    );
  }
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    if (!updatable) return undefined;
    // The library's timer: a delay past setTimeout's 24.8 days is waited for, not fired at once.
    return startTimer(() => setDebounced(() => value), delay);
  }, [value, delay, updatable]);
  return [debounced, !Object.is(debounced, value)];
}

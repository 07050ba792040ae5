/** useDebounce: a value that follows another once it has stopped changing (docs/useDebounce.md). */

import { useEffect, useState } from 'react';

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
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    if (!updatable) return undefined;
    const timer = setTimeout(() => setDebounced(() => value), delay);
    return () => clearTimeout(timer);
  }, [value, delay, updatable]);
  return [debounced, !Object.is(debounced, value)];
}

/** useRowStatus: "saving…" and the last save's error on one record (docs/rowStatus.md). */

import { useSelector } from 'react-redux';
import { selectRowStatus, type RowStatus } from '../store/reads/rowStatus.js';
import { useCacheContext } from './CacheProvider.js';

/**
 * `selectRowStatus` for the store in context: `{ saving, error }` of the row `pk` of `Entity`.
 * Re-renders only when that row's status changes (the same object otherwise), never for
 * unrelated writes.
 *
 * @example
 * ```tsx
 * const { saving, error } = useRowStatus(Post, post.id);
 * return <li>{post.title}{saving && ' saving…'}{error !== undefined && ` ${String(error)}`}</li>;
 * ```
 */
export function useRowStatus(Entity: { readonly key: string }, pk: string | number): RowStatus {
  const cache = useCacheContext('useRowStatus');
  return useSelector((state: unknown) => selectRowStatus(cache, state, Entity, pk));
}

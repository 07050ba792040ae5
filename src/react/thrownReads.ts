/**
 * The reads that threw inside an `<ErrorBoundary>` (AsyncBoundary.ts): each reader that throws
 * for data notes its read with the nearest one, so that boundary's retry fetches again exactly
 * what its readers had nothing to show for (docs/boundaries.md).
 */

import { createContext } from 'react';
import type { EndpointLike } from '../store/endpoint.js';

/** One read a reader threw for: what to fetch again. */
export interface ThrownRead {
  readonly endpoint: EndpointLike;
  readonly args: readonly unknown[];
}

/** The boundary's record, by request key: one entry per read, kept until its next retry. */
export type ThrownReads = Map<string, ThrownRead>;

/** The nearest boundary's record; null outside any. */
export const ThrownReadsContext = createContext<ThrownReads | null>(null);

/** Notes, with the nearest boundary, a read its reader throws for: the boundary's retry fetches it again. */
export function noteThrown(
  thrown: ThrownReads | null,
  key: string | undefined,
  endpoint: EndpointLike,
  args: readonly unknown[],
): void {
  if (key !== undefined) thrown?.set(key, { endpoint, args });
}

/** The shape of the cache slice (docs/store.md, "The slice"). Everything in it is plain JSON. */

import type { Dict } from './dict.js';
import type { ErrorRecord } from './errors.js';
import type { WriteMeta } from './patch.js';

/** A stored row: a plain object, an array (collections), or `null` (a tombstone). */
export type Row = object | null;

/** `meta[requestKey]`: when the stored response was fetched, when it expires, and its error. */
export interface EndpointMeta extends WriteMeta {
  error?: ErrorRecord;
  invalidated?: boolean;
  /**
   * A paginated list's answer: how many of the pages its list holds it brought (docs/pagination.md,
   * "A list read at several lenses"); absent is none.
   */
  pages?: number;
}

export interface CacheState {
  /** `entities[table][rowKey]`: entity rows, Scalar cells and collection rows; `null` marks a deletion. */
  entities: Dict<Dict<Row>>;
  entitiesMeta: Dict<Dict<WriteMeta>>;
  /** `endpoints[requestKey]`: the normalized result of the last accepted response. */
  endpoints: Dict<unknown>;
  meta: Dict<EndpointMeta>;
  lastReset: number;
}

/**
 * The patch format of every write: Immer's (`{ op, path, value }`), so a write's payload can be
 * inspected, replayed or undone with Immer's own `applyPatches` as well as with the cache reducer.
 */
export interface Patch {
  op: 'add' | 'replace' | 'remove';
  path: (string | number)[];
  value?: unknown;
}

/** `{ fetchedAt, date, expiresAt }` of one write: when its request started, was stored, expires. */
export interface WriteMeta {
  fetchedAt: number;
  date: number;
  expiresAt: number;
  /** Set on the rows of a pending optimistic guess (never in the confirmed state). */
  optimistic?: true;
  /** A mutation's answer: the start stamp of its request (`fetchedAt` is its arrival). */
  sent?: number;
  /**
   * Two overlapping mutation answers disagreed on this row: which one the server holds is
   * unknown, so every response reading it is stale until read again (docs/mutations.md).
   */
  ambiguous?: true;
}

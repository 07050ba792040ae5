/**
 * What one store's readers need remembered about requests between renders (docs/store.md, "An
 * expiry of 0", and "A read that stays invalid"): the record the last settled request of each key
 * left, the start of the request readers waited for, and one never-rejecting promise per request
 * for Suspense. Owned by the store's runtime; bounded (LRU) and weakly keyed.
 */

import { Lru } from '../../base/Lru.js';
import type { CacheState, EndpointMeta } from '../../base/state.js';
import { isCancellation } from './Requests.js';

/** Marks kept at most per kind (least recently marked out first): one per key a hook fetched. */
const MARKS = 1_000;

export class ReadMarks {
  /**
   * Per request key: the meta record the last settled request left. While that very record is
   * still the key's meta, nothing was written for the key since.
   */
  private readonly settled = new Lru<string, object>(MARKS);
  /**
   * Per request key: the start of the request readers waited for (they had nothing to show),
   * until a mounted reader has shown its answer. An answer stale as it arrives (an expiry of 0)
   * is shown to them without being fetched again.
   */
  private readonly fresh = new Lru<string, number>(MARKS);
  private readonly watched = new WeakSet<Promise<unknown>>();
  private readonly quiet = new WeakMap<Promise<unknown>, Promise<unknown>>();

  /** Reads the store's slice now. */
  declare private readonly slice: () => CacheState;
  constructor(slice: () => CacheState) {
    this.slice = slice;
  }

  /** Notes the meta record `request` leaves for `key` when it settles (once per request). */
  watch(key: string, request: Promise<unknown>): void {
    if (this.watched.has(request)) return;
    this.watched.add(request);
    const note = (): void => {
      const meta = this.slice().meta[key];
      if (meta) this.settled.set(key, meta);
    };
    // An aborted request wrote nothing: it says nothing of what a new one would bring.
    request.then(note, (error: unknown) => (isCancellation(error) ? this.settled.delete(key) : note()));
  }

  /**
   * True when the last request for `key` settled, nothing was written for the key since (`meta`
   * is the record it left), and the response still reads as invalid (a root entity the answer
   * itself deleted, an error that expired at once): fetching again would loop without end. The
   * mark stays while that holds; any write for the key or a usable read forgets it.
   */
  settledInvalid(key: string, meta: object | undefined, invalid: boolean): boolean {
    const mark = this.settled.get(key);
    if (mark === undefined) return false;
    if (invalid && mark === meta) return true;
    this.settled.delete(key);
    return false;
  }

  /** Readers with nothing to show wait for the request started at `start` for `key`. */
  waiting(key: string, start: number | undefined): void {
    if (start !== undefined) this.fresh.set(key, start);
  }

  /** Whether `meta` is the answer readers waited for, stale as it arrived, and not shown by a mounted reader yet. */
  freshAnswer(key: string, meta: EndpointMeta | undefined): boolean {
    return meta !== undefined && meta.expiresAt <= meta.date && this.fresh.get(key) === meta.fetchedAt;
  }

  /** A mounted reader showed `key`'s current record: a reader mounting after it fetches it again when stale. */
  shown(key: string): void {
    const meta = this.slice().meta[key];
    if (meta && this.fresh.get(key) === meta.fetchedAt) this.fresh.delete(key);
  }

  /**
   * A promise that settles with `request` and never rejects (its value, or `undefined` on
   * failure: the error is stored). The same one for the same request, so React sees one thenable.
   */
  settledOf<T>(request: Promise<T>): Promise<T | undefined> {
    let settled = this.quiet.get(request);
    if (!settled) {
      settled = request.then(
        value => value,
        () => undefined,
      );
      this.quiet.set(request, settled);
    }
    return settled as Promise<T | undefined>;
  }

  /** A sweep collected `key`: what was noted about it goes too. */
  drop(key: string): void {
    this.settled.delete(key);
    this.fresh.delete(key);
  }

  /** After a reset: every mark goes. */
  clear(): void {
    this.settled.clear();
    this.fresh.clear();
  }
}

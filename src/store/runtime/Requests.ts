/**
 * The table of one store's requests in flight (docs/architecture.md, "One request, top to
 * bottom"): the shared read of each key (what an identical read joins, what `isFetching` answers),
 * and every request not settled yet (what a sweep keeps). The store's runtime runs each request;
 * this table only records it, and calls nobody back but the listeners of `fetching`.
 */

import type { EndpointLike } from '../endpoint.js';

/** What `cache.fetch` resolves to, with `abort()`: shared requests are aborted for every caller. */
export type FetchPromise<T> = Promise<T> & { abort(reason?: unknown): void };

/** A request not settled yet: its key, its start stamp, and whether it is a mutation (answered with its arrival's stamp). */
export interface Unsettled {
  readonly key: string;
  readonly start: number;
  readonly mutation: boolean;
  /** The endpoint's schema: what its answer can write. */
  readonly schema: unknown;
}

interface Shared {
  readonly promise: FetchPromise<unknown>;
  readonly controller: AbortController;
  readonly start: number;
}

export class Requests {
  private readonly shared = new Map<string, Shared>();
  /** Every request not settled yet (shared or not): what a sweep must keep. */
  private readonly running = new Map<AbortController, Unsettled>();
  /** Counts resets: a request from an earlier one writes nothing, even within the same millisecond. */
  generation = 0;
  /** Aborted by a reset: retries waiting to be sent give up (a new one is made for the next run). */
  resets = new AbortController();
  /** Told (in a microtask, batched) when a key's shared request starts or ends. */
  private readonly listeners = new Set<() => void>();
  private told = false;

  /**
   * Calls `listener` whenever a read's request in flight starts or ends (what `fetching` answers
   * changed), in a microtask and once per burst: requests start during renders, where no other
   * component may be told to render. Returns the removal.
   */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private changed(): void {
    if (this.told || this.listeners.size === 0) return;
    this.told = true;
    queueMicrotask(() => {
      this.told = false;
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** Whether a read's request for `key` is in flight now. */
  fetching(key: string): boolean {
    return this.shared.has(key);
  }

  /** The read in flight for `key` (an identical read joins it; pollers too). */
  pending(key: string): FetchPromise<unknown> | undefined {
    return this.shared.get(key)?.promise;
  }

  /** The start stamp of the read in flight for `key`: its answer is stored with it (`fetchedAt`). */
  startOf(key: string): number | undefined {
    return this.shared.get(key)?.start;
  }

  /** The requests not settled yet (garbage collection keeps their keys and what they may write). */
  unsettled(): Iterable<Unsettled> {
    return this.running.values();
  }

  /** Records a request that starts now; a read is the one its key's next identical reads join. */
  add(
    endpoint: EndpointLike,
    key: string,
    start: number,
    controller: AbortController,
    promise?: FetchPromise<unknown>,
  ) {
    this.running.set(controller, { key, start, mutation: endpoint.sideEffect === true, schema: endpoint.schema });
    if (!promise) return;
    this.shared.set(key, { promise, controller, start });
    this.changed();
  }

  /** Frees `key` for the next fetch, unless a newer request holds it already. */
  release(key: string, controller: AbortController): void {
    if (this.shared.get(key)?.controller !== controller) return;
    this.shared.delete(key);
    this.changed();
  }

  /** The request of `controller` settled (its outcome is written, or dropped). */
  settled(controller: AbortController): void {
    this.running.delete(controller);
  }

  /** Lets the next fetch of `key` start a new request (after `invalidate`, an abort). */
  forget(key: string): void {
    if (this.shared.delete(key)) this.changed();
  }

  /** Forgets every request (a reset: their answers are dropped, new fetches start anew). */
  clear(): void {
    if (this.shared.size > 0) this.changed();
    this.shared.clear();
    this.running.clear();
    this.generation++;
    this.resets.abort();
    this.resets = new AbortController();
  }
}

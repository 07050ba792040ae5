/**
 * The requests of one cache in one store (docs/store.md, "Requests"): identical reads in flight share one
 * request, every request can be aborted, and each settles as one write. In-flight requests live
 * here, not in the state: starting a fetch dispatches nothing.
 */

import { ErrorCode, setupError, describe } from '../../base/errors.js';
import { stableStringify } from '../../base/json.js';
import { checkEndpointOptions, hasSchema, requestKey, type EndpointLike } from '../endpoint.js';
import { pagedRunner } from './pages.js';
import { StartClock } from './StartClock.js';
import { isCancellation, runnerOf, untilAborted, withTimeout } from './sending.js';
import type { ListPlace } from '../../rest/types.js';
import type { JoinedPages, Resolved, ResolveInput } from '../types.js';
import type { OutgoingRequest } from './Feature.js';

/** What `cache.fetch` resolves to, with `abort()`: shared requests are aborted for every caller. */
export type FetchPromise<T> = Promise<T> & { abort(reason?: unknown): void };

/**
 * The fetch path's parts from the store's runtime (StoreRuntime.ts): the one write of a settled
 * request, the read its promise resolves to, and the features' hook points (Feature.ts).
 */
export interface FetchPath {
  /** Writes a settled request (writes/resolve.ts), returning what was written. */
  resolve(endpoint: EndpointLike, input: ResolveInput): Resolved | undefined;
  /** The stored result denormalized for args (what the promise resolves to). */
  data(endpoint: EndpointLike, args: readonly unknown[], result: unknown): unknown;
  /** The highest start stamp in the store's slice (StartClock.ts). */
  highWater(): number;
  /** The page params the list at `place` holds (pages.ts). */
  heldPages(place: ListPlace): readonly unknown[] | undefined;
  /** Refuses an endpoint whose options need a feature the cache lacks (FEATURE_MISSING). */
  check(endpoint: EndpointLike, key: string): void;
  /** Before a request is sent: a throw fails the call, and nothing is sent (optimistic guesses). */
  starting(request: OutgoingRequest): void;
  /** Sends a read whose endpoint has `retry` (retries). */
  sending(request: OutgoingRequest, send: () => Promise<unknown>, stop: readonly AbortSignal[]): Promise<unknown>;
  /** The request was aborted (`isCancellation`): its guess goes, and nothing is written for its key. */
  cancelled(endpoint: EndpointLike, start: number): void;
  /** After a failure was written (the reset on 401); what it throws rejects the request. */
  failed(error: unknown): void;
  /** A request this store sent succeeded (its answer was written). */
  succeeded(): void;
  /** The cache's `timeout`, for endpoints without their own. */
  readonly timeout: number | undefined;
}

/** A request not settled yet: its key, its start stamp, and whether it is a mutation (answered with its arrival's stamp). */
export interface Unsettled {
  readonly key: string;
  readonly start: number;
  readonly mutation: boolean;
  /** The endpoint's schema: what its answer can write. */
  readonly schema: unknown;
}

interface InFlight {
  readonly promise: FetchPromise<unknown>;
  readonly controller: AbortController;
  readonly start: number;
}

export class Requests {
  private readonly inFlight = new Map<string, InFlight>();
  /** Counts resets: a request from an earlier one writes nothing, even within the same millisecond. */
  private generation = 0;
  /** This store's start stamps: requests, and the cache's other writes through `stamp`. */
  private readonly clock = new StartClock();
  /** Aborted by a reset: retries waiting to be sent give up (a new one is made for the next run). */
  private resets = new AbortController();
  /** Every request not settled yet (shared or not), with its key and start: what a sweep must keep. */
  private readonly running = new Map<AbortController, Unsettled>();

  /** Told (in a microtask, batched) when a key's shared request in flight starts or ends. */
  private readonly listeners = new Set<() => void>();
  private told = false;

  constructor(private readonly path: FetchPath) {}

  /**
   * Calls `listener` whenever a read's request in flight starts or ends (what `fetching` answers
   * changed), in a microtask and once per burst: requests start during renders, where no other
   * component may be told to render. Returns the removal.
   */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Whether a read's request for `key` is in flight now. */
  fetching(key: string): boolean {
    return this.inFlight.has(key);
  }

  private changed(): void {
    if (this.told || this.listeners.size === 0) return;
    this.told = true;
    queueMicrotask(() => {
      this.told = false;
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** The start stamp of a write or request starting now in this store. */
  stamp(): number {
    return this.clock.next(this.path.highWater(), Date.now());
  }

  /** Forgets requests in flight (after a reset: their answers are dropped, new fetches start anew). */
  clear(): void {
    if (this.inFlight.size > 0) this.changed();
    this.inFlight.clear();
    this.running.clear();
    this.generation++;
    this.resets.abort();
    this.resets = new AbortController();
  }

  /** The start stamp of the read in flight for `key`: its answer is stored with it (`fetchedAt`). */
  startOf(key: string): number | undefined {
    return this.inFlight.get(key)?.start;
  }

  /** The request in flight for `key` (pollers join it rather than send another). */
  pending(key: string): Promise<unknown> | undefined {
    return this.inFlight.get(key)?.promise;
  }

  /** The requests not settled yet (garbage collection keeps their keys and what they may write). */
  unsettled(): Iterable<Unsettled> {
    return this.running.values();
  }

  /** Lets the next fetch of `key` start a new request (after `invalidate`, an abort). */
  forget(key: string): void {
    if (this.inFlight.delete(key)) this.changed();
  }

  fetch(
    endpoint: EndpointLike,
    args: readonly unknown[],
    /** Also ends the request's retries (a poll's: they stop with its poller, Pollers.ts). */
    stopRetries?: AbortSignal,
  ): FetchPromise<unknown> {
    const plain = runnerOf(endpoint);
    const key = requestKey(endpoint, args);
    const shared = !endpoint.sideEffect;
    if (shared) {
      // Joining the request in flight costs a lookup: its endpoint was checked when it started.
      const existing = this.inFlight.get(key);
      if (existing) return existing.promise;
    }
    // The args key the answer's write and read: args no key can tell apart are refused before sending.
    stableStringify(args);
    checkEndpointOptions(endpoint, key);
    this.path.check(endpoint, key);
    // A list that holds pages fetches them again with its first page, as one response (pages.ts).
    let pages: JoinedPages | undefined;
    const run = pagedRunner(
      endpoint,
      plain,
      place => this.path.heldPages(place),
      joined => (pages = joined),
    );
    const controller = new AbortController();
    // A request is as old as its start, so a slow answer never overwrites a newer one.
    const fetchedAt = this.stamp();
    const generation = this.generation;
    const request = { endpoint, args, key, start: fetchedAt };
    // The features' first hook point (an optimistic guess is written here, before the request is
    // sent); a throw there fails the call, and nothing is sent.
    try {
      this.path.starting(request);
    } catch (error) {
      return Object.assign(Promise.reject(error), { abort: () => {} });
    }
    // Frees the key for the next fetch, unless a newer request holds it already.
    const release = (): void => {
      if (this.inFlight.get(key)?.controller !== controller) return;
      this.inFlight.delete(key);
      this.changed();
    };
    const settle = async (): Promise<unknown> => {
      try {
        return await write();
      } finally {
        this.running.delete(controller);
      }
    };
    const write = async (): Promise<unknown> => {
      let response: unknown;
      let failure: { error: unknown } | undefined;
      try {
        // Started in a microtask, after the request is registered below: hooks start fetches
        // during render, and no endpoint code (nor an app's fetch wrapper) may run inside a
        // render. A fetch that throws synchronously, or returns a plain value, settles like any other.
        const once = (): Promise<unknown> =>
          Promise.resolve().then(() => {
            controller.signal.throwIfAborted();
            // Each try has the endpoint's time limit, or the cache's (timeout.ts).
            const limit = endpoint.timeout ?? this.path.timeout;
            return limit === undefined || limit === Infinity
              ? run(args, controller.signal)
              : withTimeout(signal => run(args, signal), controller.signal, limit, key);
          });
        // A read with `retry` is sent again on network failures and 5xx (retrying.ts), still as
        // this one request: the key stays in flight, and what is stored is the last outcome.
        const sent =
          shared && endpoint.retry
            ? this.path.sending(request, once, [
                controller.signal,
                this.resets.signal,
                ...(stopRetries ? [stopRetries] : []),
              ])
            : once();
        response = await untilAborted(sent, controller.signal);
      } catch (error) {
        failure = {
          error:
            error ??
            setupError(
              ErrorCode.NETWORK_ERROR,
              process.env.NODE_ENV !== 'production' && [
                `The request ${key} failed without a reason: it was rejected with ${describe(error)}.`,
                'Make the endpoint reject with an Error that says what went wrong.',
              ],
            ),
        };
      } finally {
        release();
      }
      // The store was reset since this request started; its answer is dropped.
      if (generation !== this.generation) {
        if (failure) throw failure.error;
        return undefined;
      }
      // A mutation's answer is as new as its arrival: the server may have served a read that
      // started before then without it, so such a read must not overwrite what it writes
      // (docs/architecture.md, "Ordering"). A read's answer is as old as its start.
      const stamp = endpoint.sideEffect ? this.stamp() : fetchedAt;
      if (failure && isCancellation(failure.error)) {
        this.path.cancelled(endpoint, fetchedAt);
        throw failure.error;
      }
      if (failure) {
        this.path.resolve(endpoint, { args, error: failure.error, fetchedAt: stamp, start: fetchedAt });
        this.path.failed(failure.error);
        throw failure.error;
      }
      const written = this.path.resolve(endpoint, { args, response, fetchedAt: stamp, start: fetchedAt, pages });
      if (written?.error !== undefined) throw written.error;
      // A request from before a reset writes nothing; its promise settles with nothing.
      if (!written) return undefined;
      this.path.succeeded();
      // Without a schema the store keeps its own frozen copy: resolve to it, as selectResponse reads it.
      if (!hasSchema(endpoint)) return response === undefined ? undefined : written.result;
      return this.path.data(endpoint, args, written.result);
    };
    const abort = (reason?: unknown): void => {
      // A fetch right after an abort starts anew rather than joining the aborted request.
      release();
      controller.abort(reason);
    };
    this.running.set(controller, {
      key,
      start: fetchedAt,
      mutation: endpoint.sideEffect === true,
      schema: endpoint.schema,
    });
    const promise = Object.assign(settle(), { abort });
    if (shared) {
      this.inFlight.set(key, { promise, controller, start: fetchedAt });
      this.changed();
    }
    return promise;
  }
}

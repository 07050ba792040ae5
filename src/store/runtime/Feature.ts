/**
 * The feature contract (docs/architecture.md, "Features"). Each capability beyond reading and
 * writing — garbage collection, live data, retries, optimistic updates — is a Feature: installed
 * once into each store's runtime when the cache's middleware is mounted, it fills some of the hook
 * points below, and may offer the cache's methods an API (`cache.gc` asks garbage collection for
 * its sweep). The runtime calls the hook points; it knows no feature by its code, so a cache built
 * without a feature does not bundle it.
 *
 * The types here sit below the runtime and the features (they import neither).
 */

import type { CacheState } from '../../base/state.js';
import type { NormalizeOptions } from '../../normalize/normalize.js';
import type { EndpointLike } from '../endpoint.js';
import type { WritePayload } from '../slice/actions.js';

/** The features a cache can be built with (docs/features.md). */
export type FeatureName = 'garbageCollection' | 'liveData' | 'optimisticUpdates' | 'retries';

/** A request about to be sent: what the fetch path's hook points are told. */
export interface OutgoingRequest {
  readonly endpoint: EndpointLike;
  readonly args: readonly unknown[];
  readonly key: string;
  /** The request's start stamp (docs/architecture.md, "Ordering"). */
  readonly start: number;
}

/** What a confirmed write computed, and the patches that take the store's slice there. */
export interface Rebuilt<T> {
  computed: T | undefined;
  payload: WritePayload;
}

/**
 * How the store's confirmed writes (answers, `set`, invalidations, sweeps) are computed. Without
 * a writer, a write is computed against the slice itself; optimistic updates supply one that
 * computes it against the confirmed state and writes the pending guesses over the result.
 */
export interface ConfirmedWriter {
  write<T extends WritePayload>(
    visible: CacheState,
    compute: (confirmed: CacheState) => T | undefined,
    options: NormalizeOptions,
  ): Rebuilt<T>;
}

/** The hook points one feature fills in one store's runtime; each is optional. */
export interface FeatureHooks {
  /**
   * Fetch path: a request is about to be sent (after the in-flight join, before the network).
   * A throw fails the call, and nothing is sent.
   */
  starting?(request: OutgoingRequest): void;
  /**
   * Fetch path: sends a read whose endpoint has `retry` (`send` sends it once; any of `stop`
   * aborting ends it). One feature at most.
   */
  sending?(request: OutgoingRequest, send: () => Promise<unknown>, stop: readonly AbortSignal[]): Promise<unknown>;
  /** Write path: how confirmed writes are computed. One feature at most. */
  writer?: ConfirmedWriter;
  /** Write path: the request `endpoint` started at `start` settled; its outcome is written next. */
  settling?(endpoint: EndpointLike, start: number): void;
  /** Write path: a request's outcome was written for `key`. */
  written?(key: string, endpoint: EndpointLike, args: readonly unknown[]): void;
  /** After `resetEntireStore`: the state was emptied, and requests in flight dropped. */
  reset?(): void;
  /** After an action the cache did not make replaced the slice (HYDRATE, REHYDRATE, a DevTools import). */
  replaced?(): void;
  /** What the feature offers the cache's methods, by feature (FeatureApis). */
  api?: unknown;
}

/** What a sweep removed. */
export interface SweepReport {
  /** Responses dropped (their result, meta and error). */
  requests: number;
  /** Rows dropped (entities, collection lists, Scalar cells, index entries, tombstones). */
  rows: number;
}

/** Which window events `setupListeners` refetches on (both by default). */
export interface ListenerOptions {
  /** Refetch when the window regains focus or the page becomes visible again (default true). */
  refetchOnFocus?: boolean;
  /** Refetch when the browser comes back online (default true). */
  refetchOnReconnect?: boolean;
}

/** What each feature offers the cache's methods (the ones that have methods). */
export interface FeatureApis {
  garbageCollection: { sweep(): SweepReport };
  liveData: {
    subscribe(endpoint: EndpointLike, args: readonly unknown[]): () => void;
    setupListeners(options?: ListenerOptions): () => void;
  };
}

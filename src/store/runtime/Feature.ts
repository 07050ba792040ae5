/**
 * The feature contract (docs/architecture.md, "The features' points"): a feature fills some of the
 * runtime's named points and may offer the Controller an API; the runtime knows no feature by its
 * code, so a cache built without one does not bundle it. These types import neither the runtime
 * nor a feature: a feature is `FeatureOf<R>` for its runtime `R` (StoreRuntime.ts names it `Feature`).
 */

import { setupError, type DevText } from '../../base/errors.js';
import { featureMissing } from '../endpoint.js';
import type { CacheState } from '../../base/state.js';
import type { NormalizeOptions } from '../../normalize/normalize.js';
import type { EndpointLike } from '../endpoint.js';
import type { WriteAction, WritePayload } from '../slice/reducer.js';
import type { JoinedPages, PageWay, Resolved, ResolveInput } from '../types.js';

type Runner = (args: readonly unknown[], signal: AbortSignal) => Promise<unknown>;

/** The features a cache can be built with (docs/features.md). */
export type FeatureName =
  'garbageCollection' | 'liveData' | 'optimisticUpdates' | 'retries' | 'pagination' | 'crossTab' | 'outbox' | 'bursts';

/** A request about to be sent: what the fetch path's hook points are told. */
export interface OutgoingRequest {
  readonly endpoint: EndpointLike;
  readonly args: readonly unknown[];
  readonly key: string;
  /** The request's start stamp (docs/architecture.md, "Ordering"). */
  readonly start: number;
  /**
   * When a feature held the request and sent it later (the outbox): the stamp it was sent at,
   * which its answer carries instead of `start` to tell overlapping mutations apart.
   */
  sent?: number;
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

/**
 * A store's bursts of answers (the bursts feature): each answer lands in the queue of its task,
 * and the answers of the queue are written one after the other against a working copy, as one
 * action. One feature at most fills it (the first listed).
 */
export interface Burst {
  /** Lands an answer: `land` writes it and returns what tells its caller, once the write is dispatched. */
  land(land: () => () => unknown): Promise<unknown>;
  /** The working copy while answers are joined, else the store's slice. */
  state(): CacheState;
  /** Where a write goes: dispatched, or joined while answers are. */
  readonly store: { dispatch(action: WriteAction): void };
  /** Runs `hook` once what is being written is dispatched (at once, outside a burst). */
  later(hook: () => void): void;
}

/** Runs `hook` now (where a burst runs it once its write is dispatched). */
export const now = (hook: () => void): void => hook();

/** The hook points one feature fills in one store's runtime; each is optional. */
export interface FeatureHooks {
  /**
   * Fetch path: a request whose endpoint has `getOptimisticResponse` is about to be sent (after
   * the in-flight join and the option checks, before the network). A throw fails the call, and
   * nothing is sent.
   */
  guessing?(request: OutgoingRequest): void;
  /**
   * Fetch path: sends a read whose endpoint has `retry`, or any mutation (`send` sends it once, or
   * through the features listed before this one; any of `stop` aborting ends it). Features that
   * fill it wrap one another in the order they are listed.
   */
  sending?(request: OutgoingRequest, send: () => Promise<unknown>, stop: readonly AbortSignal[]): Promise<unknown>;
  /**
   * Paginated endpoints (the pagination feature): how one is sent (`send` sends its own request;
   * the pages its list holds are told to `joined`), and its write with the list's record of its
   * pages, computed against `state`.
   */
  paging?: {
    send(endpoint: EndpointLike, send: Runner, joined: (pages: JoinedPages | PageWay) => void): Runner;
    written(
      state: CacheState,
      endpoint: EndpointLike,
      input: ResolveInput,
      resolved: Resolved | undefined,
    ): Resolved | undefined;
  };
  /** Write path: the answers that land in one task, written as one action (the bursts feature). */
  burst?: Burst;
  /** Write path: how confirmed writes are computed. One feature at most (a second is INVALID_OPTION as the store mounts). */
  writer?: ConfirmedWriter;
  /** Write path: the request `endpoint` started at `start` settled; its outcome is written next. */
  settling?(endpoint: EndpointLike, start: number): void;
  /** Write path: a request's outcome was written for `key`. */
  written?(key: string, endpoint: EndpointLike, args: readonly unknown[]): void;
  /** After `resetEntireStore`: the state was emptied, and requests in flight dropped. */
  reset?(): void;
  /** After an action the cache did not make replaced the slice (HYDRATE, REHYDRATE, a DevTools import). */
  replaced?(): void;
  /** What the feature offers the cache's methods (its entry in FeatureApis). */
  api?: FeatureApis[keyof FeatureApis];
}

/** What a sweep removed. */
export interface SweepReport {
  /** Responses dropped (their result, meta and error). */
  requests: number;
  /** Rows dropped (entities, collection lists, Scalar cells, index entries, tombstones). */
  rows: number;
}

/**
 * A source of focus or reconnect events other than the window (React Native's AppState, NetInfo):
 * given `refetch`, it calls it on each event, and returns the function that stops it.
 */
export type ListenerSource = (refetch: () => void) => () => void;

/** Which events `setupListeners` refetches on (both by default), and where they come from (the window by default). */
export interface ListenerOptions {
  /** Refetch when the window regains focus or the page becomes visible again (default true). */
  refetchOnFocus?: boolean;
  /** Refetch when the browser comes back online (default true). */
  refetchOnReconnect?: boolean;
  /** Where focus comes from instead of the window: `refetch => unsubscribe` (docs/live-data.md, "Other sources of focus and reconnect"). */
  onFocus?: ListenerSource | undefined;
  /** Where coming back online comes from instead of the window: `refetch => unsubscribe`. */
  onOnline?: ListenerSource | undefined;
}

/** What each feature offers the cache's methods (the ones that have methods). */
export interface FeatureApis {
  garbageCollection: { sweep(): SweepReport };
  liveData: {
    subscribe(endpoint: EndpointLike, args: readonly unknown[]): () => void;
    setupListeners(options?: ListenerOptions): () => void;
    /** The store's pollers (for diagnostics and tests). */
    readonly pollers: object;
  };
  /** The store's ledger of guesses (for diagnostics and tests). */
  optimisticUpdates: object;
}

/**
 * A capability installed into each store's runtime `R` (docs/features.md): `install` runs once per
 * store, as the cache's middleware is mounted, and returns the points it fills.
 */
export interface FeatureOf<R, N extends FeatureName = FeatureName> {
  readonly name: N;
  install(runtime: R): FeatureHooks & { api?: N extends keyof FeatureApis ? FeatureApis[N] : never };
}

/** The features installed into one store's runtime: their hook points in the order listed, their APIs, and the one writer. */
export class Installed<R> {
  readonly hooks: FeatureHooks[] = [];
  readonly names = new Set<FeatureName>();
  /** How confirmed writes are computed, when a feature (optimistic updates) says; else against the slice itself. */
  declare readonly writer: ConfirmedWriter | undefined;
  private readonly apis = new Map<FeatureName, unknown>();
  declare private readonly paging: FeatureHooks['paging'];
  /** The bursts of answers, when the bursts feature is installed (Burst). */
  declare readonly burst: Burst | undefined;

  constructor(features: readonly FeatureOf<R>[], runtime: R) {
    let writer: ConfirmedWriter | undefined;
    for (const feature of features) {
      const hooks = feature.install(runtime);
      this.hooks.push(hooks);
      this.names.add(feature.name);
      if (hooks.api !== undefined) this.apis.set(feature.name, hooks.api);
      if (hooks.writer && writer) throw twoWriters(feature.name);
      writer ??= hooks.writer;
      this.paging ??= hooks.paging;
      this.burst ??= hooks.burst;
    }
    this.writer = writer;
  }

  /** The pagination feature's points, for the paginated endpoint `key`; FEATURE_MISSING when the cache was built without it. */
  pages(key: string): NonNullable<FeatureHooks['paging']> {
    if (this.paging === undefined)
      throw featureMissing('pagination', process.env.NODE_ENV !== 'production' && `The paginated endpoint ${key}`);
    return this.paging;
  }

  /** The API of a feature; FEATURE_MISSING when the cache was built without it. */
  api<N extends keyof FeatureApis>(name: N, use: DevText): FeatureApis[N] {
    const api = this.apis.get(name);
    if (api === undefined) throw featureMissing(name, use);
    return api as FeatureApis[N];
  }
}

/** Two features that compute confirmed writes (a store has one writer): INVALID_OPTION as the store mounts. */
function twoWriters(name: FeatureName): Error {
  return setupError(
    'INVALID_OPTION',
    process.env.NODE_ENV !== 'production' && [
      `The feature ${name} computes confirmed writes, but another feature of this cache does already; a cache can have one.`,
      'Build the cache with only one of them.',
    ],
  );
}

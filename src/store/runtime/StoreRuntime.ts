/**
 * What one cache knows about one store outside the Redux state, and the one place a request runs
 * top to bottom: join, stamp, features before sending, send, compute the write against the
 * confirmed state, dispatch it, features after, read back (docs/architecture.md, "One request,
 * top to bottom"). Every other write is computed and dispatched here too. One per cache and
 * store, made as the cache's middleware is mounted.
 */

import { isDownload } from '../../base/endpointOptions.js';
import { isErrorLike } from '../../base/errors.js';
import { stableStringify } from '../../base/json.js';
import type { CacheState } from '../../base/state.js';
import { checkEndpointOptions, hasSchema, requestKey, type EndpointLike } from '../endpoint.js';
import type { NormalizeOptions } from '../../normalize/normalize.js';
import type { UnauthorizedPolicy } from '../cacheOptions.js';
import type { RequestOptions } from '../../rest/requestContext.js';
import type { ExpiryDefaults } from '../endpoint.js';
import type { Selectors } from '../reads/selectors.js';
import { ActionTypes, writeAction, type ActionMeta, type ActionType, type WritePayload } from '../slice/reducer.js';
import type { SliceFacts } from '../slice/reducer.js';
import type { JoinedPages, PageWay, Resolved, ResolveInput, StoreLike } from '../types.js';
import { computeResolve } from '../writes/compute.js';
import { Controller } from './Controller.js';
import { Installed, now, type FeatureName, type FeatureOf, type OutgoingRequest } from './Feature.js';
import { ReadMarks } from './ReadMarks.js';
import { isCancellation, noReason, Requests, runnerOf, tryOf, untilAborted, type FetchPromise } from './Requests.js';
import { Subscriptions } from './Subscriptions.js';

/** A feature of this runtime (Feature.ts). */
export type Feature<N extends FeatureName = FeatureName> = FeatureOf<StoreRuntime, N>;

/** What the cache gives each store's runtime: its parts shared by every store. */
export interface CacheParts {
  readonly reducerPath: string;
  readonly normalizeOptions: NormalizeOptions;
  /** createCache's options, checked. */
  readonly gcTime: number;
  readonly expiry: ExpiryDefaults;
  /** createCache's request options, checked (docs/authentication.md). */
  readonly request: RequestOptions;
  readonly unauthorized: UnauthorizedPolicy | undefined;
  readonly features: readonly Feature[];
  slice(rootState: unknown): CacheState;
  /** A slice's highest start stamp and lineage, and all its facts (slice/reducer.ts, SliceFacts); a new read memo. */
  highWater(slice: CacheState): number;
  lineage(slice: CacheState): object;
  facts: SliceFacts;
  memo(): Selectors;
  /** Reads `state` as `selectQuery` does; `visible` is the slice the store shows. */
  readState(state: CacheState, visible: CacheState, schema: unknown, args: readonly unknown[]): unknown;
}

export class StoreRuntime {
  readonly subscriptions = new Subscriptions();
  /** The table of requests in flight (Requests.ts). */
  readonly requests = new Requests();
  /** What readers need remembered between renders (ReadMarks.ts). */
  readonly marks = new ReadMarks(() => this.state());
  declare readonly controller: Controller;
  /** This store's read memo: a reset or sweep here never touches another store's. */
  declare readonly selectors: Selectors;
  /** The cache's features, installed into this store (Feature.ts). */
  declare readonly features: Installed<StoreRuntime>;
  declare readonly parts: CacheParts;
  declare readonly store: StoreLike;
  /** The cache's request options, with this store's own over them (`cache.middlewareWith`). */
  declare readonly request: RequestOptions;
  /** The last start stamp given (docs/architecture.md, "Ordering"). */
  private last = -Infinity;
  /** An unauthorized failure reset the store, and no request succeeded since (docs/store.md, "Reset on 401"). */
  private signedOut = false;

  constructor(parts: CacheParts, store: StoreLike, request: RequestOptions) {
    this.parts = parts;
    this.store = store;
    this.request = { ...parts.request, ...request };
    this.selectors = parts.memo();
    this.controller = new Controller(this);
    this.features = new Installed(parts.features, this);
  }

  /** The store's slice now. */
  state(): CacheState {
    return this.parts.slice(this.store.getState());
  }

  /** A start stamp: the wall clock, raised past every stamp given and in the slice (architecture.md, "Ordering"). */
  stamp(): number {
    return (this.last = Math.max(Date.now(), this.parts.highWater(this.state()), this.last + 1));
  }

  /** Fetches `endpoint` for args (a read joins the one in flight); `stopRetries` also ends a poll's retries. */
  fetch(endpoint: EndpointLike, args: readonly unknown[], stopRetries?: AbortSignal): FetchPromise<unknown> {
    const key = requestKey(endpoint, args);
    const shared = !endpoint.sideEffect;
    // Join: an identical read in flight (its endpoint was checked when it started).
    const joined = shared ? this.requests.pending(key) : undefined;
    if (joined) return joined;
    // Args no key can tell apart, options out of range and missing features are refused before sending.
    stableStringify(args);
    checkEndpointOptions(endpoint, key, this.features.names);
    if (endpoint.pagination) this.features.pages(key);
    const send = runnerOf(endpoint, this.request, this.store);
    // Stamp: a request is as old as its start, so a slow answer never overwrites a newer one.
    const request: OutgoingRequest = { endpoint, args, key, start: this.stamp() };
    // Before sending: an endpoint's guess is written (the features' `guessing`); a throw fails the call.
    try {
      if (endpoint.getOptimisticResponse) for (const hooks of this.features.hooks) hooks.guessing?.(request);
    } catch (error) {
      return Object.assign(Promise.reject(error), { abort: () => {} });
    }
    const controller = new AbortController();
    const promise = Object.assign(this.run(request, send, controller, shared, stopRetries), {
      abort: (reason?: unknown) => {
        // A fetch right after an abort starts anew rather than joining the aborted request.
        this.requests.release(key, controller);
        controller.abort(reason);
      },
    });
    this.requests.add(endpoint, key, request.start, controller, shared ? promise : undefined);
    return promise;
  }

  /** The rest of a request: send, compute and dispatch its write, the features after it, read back. */
  private async run(
    request: OutgoingRequest,
    send: (args: readonly unknown[], signal: AbortSignal) => Promise<unknown>,
    controller: AbortController,
    shared: boolean,
    stopRetries: AbortSignal | undefined,
  ): Promise<unknown> {
    const { endpoint, args, key, start } = request;
    const { generation } = this.requests;
    let pages: JoinedPages | PageWay | undefined;
    let response: unknown;
    let failure: { error: unknown } | undefined;
    // A list that holds pages fetches them again with its first page, as one response; a page
    // notes which way it goes (pages.ts).
    const run = endpoint.pagination ? this.features.pages(key).send(endpoint, send, all => (pages = all)) : send;
    const once = tryOf(run, args, controller.signal, endpoint.timeout ?? this.request.timeout, key);
    try {
      // Send: a read with `retry` is sent again by the features that wrap sending (retries), a
      // mutation may be held and sent later (the outbox), still as this one request.
      let sending = once;
      if (endpoint.retry || !shared) {
        const stops = [controller.signal, this.requests.resets.signal, ...(stopRetries ? [stopRetries] : [])];
        for (const hooks of this.features.hooks) {
          const inner = sending;
          if (hooks.sending) sending = () => hooks.sending!(request, inner, stops);
        }
      }
      response = await untilAborted(sending(), controller.signal);
    } catch (error) {
      failure = { error: error ?? noReason(key, error) };
    }
    // Written, then the caller told: at once, or with the answers of this task (the bursts feature).
    const land = (): (() => unknown) => {
      this.requests.release(key, controller);
      this.requests.settled(controller);
      // A reset since this request started drops its answer.
      if (generation !== this.requests.generation) {
        if (failure) throw failure.error;
        return () => undefined;
      }
      if (failure && isCancellation(failure.error)) {
        // An abort is no failure of its key: its guess goes, and nothing is written.
        this.settling(endpoint, start);
        this.write(ActionTypes.optimistic, () => undefined, { start });
        throw failure.error;
      }
      // A mutation's answer is as new as its arrival (a read that started before it must not
      // overwrite it), a read's as old as its start (docs/architecture.md, "Ordering").
      const fetchedAt = endpoint.sideEffect ? this.stamp() : start;
      // Compute the write, dispatch it, the features after it; never a download's (a Blob, bytes
      // or a stream is the caller's alone: the slice holds JSON only).
      const download = isDownload(endpoint.content);
      const written = download
        ? undefined
        : this.resolve(endpoint, { ...request, error: failure?.error, response, fetchedAt, pages }, key);
      return () => {
        if (failure) {
          this.failed(failure.error);
          throw failure.error;
        }
        if (download) return response;
        if (written?.error !== undefined) throw written.error;
        if (!written) return undefined;
        this.signedOut = false;
        // Read back: the result denormalized (without a schema, the store's own frozen copy).
        if (!hasSchema(endpoint)) return response === undefined ? undefined : written.result;
        return this.selectors.denormalized(this.state(), endpoint.schema, args, written.result);
      };
    };
    return this.features.burst?.land(land) ?? land()();
  }

  /**
   * The one write of a settled request (and of `resolve`, `setResponse`, `setError`, whose stamps
   * the Controller checks): its answer or error for `key`, taking its guess's place in the same
   * write. Returns what was written (undefined when nothing was); throws what storing it threw.
   */
  resolve(endpoint: EndpointLike, input: ResolveInput, key = requestKey(endpoint, input.args)): Resolved | undefined {
    this.settling(endpoint, input.start ?? input.fetchedAt);
    let failure: { error: unknown } | undefined;
    const resolved = this.write(
      input.error === undefined ? ActionTypes.resolve : ActionTypes.setError,
      state => {
        try {
          const { normalizeOptions, expiry } = this.parts;
          const computed = computeResolve(state, endpoint, key, input, Date.now(), normalizeOptions, expiry);
          // Known before the dispatch: a store subscriber reading the error while it is told gets
          // the original (a NetworkError with its body), not one rebuilt from the record.
          if (computed?.record && isErrorLike(computed.error))
            this.selectors.errors.set(computed.record, computed.error);
          // A list's record of its pages follows its writes (pages.ts).
          return endpoint.pagination ? this.features.pages(key).written(state, endpoint, input, computed) : computed;
        } catch (error) {
          failure = { error };
          return undefined;
        }
      },
      written => ({ key: written?.key, start: input.fetchedAt }),
    );
    if (failure) throw failure.error;
    // The response's time in the cache starts now (docs/gc.md): a burst's, once it is dispatched.
    if (resolved)
      (this.features.burst?.later ?? now)(() => {
        for (const hooks of this.features.hooks) hooks.written?.(resolved.key, endpoint, input.args);
      });
    return resolved;
  }

  /**
   * A confirmed write (docs/mutations.md, "How guesses are rebased"): `compute` gets the confirmed
   * state and the one the store shows, and what it returns is dispatched as one `type` action when
   * it changes anything. Returns what `compute` returned; when it throws, nothing is written.
   */
  write<T extends WritePayload>(
    type: ActionType,
    compute: (confirmed: CacheState, visible: CacheState) => T | undefined,
    meta: ActionMeta | ((computed: T | undefined) => ActionMeta) = {},
  ): T | undefined {
    const to = this.features.burst ?? this; // (in a burst, its working copy: the bursts feature)
    const visible = to.state();
    let computed: T | undefined;
    let payload: WritePayload | undefined;
    if (this.features.writer)
      ({ computed, payload } = this.features.writer.write(
        visible,
        confirmed => compute(confirmed, visible),
        this.parts.normalizeOptions,
      ));
    else payload = computed = compute(visible, visible);
    if (payload && payload.patches.length > 0)
      to.store.dispatch(
        writeAction(
          type,
          this.parts.reducerPath,
          { patches: payload.patches, inversePatches: payload.inversePatches },
          typeof meta === 'function' ? meta(computed) : meta,
        ) as never,
      );
    return computed;
  }

  /** The request `endpoint` started at `start` settled: each feature is told before its outcome is written. */
  private settling(endpoint: EndpointLike, start: number): void {
    for (const hooks of this.features.hooks) hooks.settling?.(endpoint, start);
  }

  /**
   * A failure this store's request got was written: an unauthorized one resets the store, then
   * calls the app back (docs/store.md, "Reset on 401"); what either throws rejects the request.
   */
  private failed(error: unknown): void {
    const policy = this.parts.unauthorized;
    if (!policy?.isUnauthorized(error)) return;
    // Once per session: until a request succeeds again, a further 401 is stored as the error it
    // is (and shown), not a new reset, so readers still mounted do not refetch without end.
    if (!this.signedOut) {
      this.signedOut = true;
      this.controller.resetEntireStore();
    }
    policy.onUnauthorized(error, this.controller);
  }

  /** After `resetEntireStore`: requests in flight, read marks and the memo go, and each feature is told. */
  reset(): void {
    this.requests.clear();
    this.marks.clear();
    // The memo would hold the old rows until evicted (docs/gc.md, "Outside the state").
    this.selectors.clear();
    for (const hooks of this.features.hooks) hooks.reset?.();
  }

  /** The slice was replaced by an action the cache did not make (slice/reducer.ts, SliceFacts): each feature is told. */
  replaced(): void {
    for (const hooks of this.features.hooks) hooks.replaced?.();
  }
}

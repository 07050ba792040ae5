/**
 * Live data for one store (docs/live-data.md): `cache.subscribe` (a subscriber of a request key,
 * registered with the store's Subscriptions and polled by its Pollers) and `cache.setupListeners`
 * (refetch on window focus and on coming back online). The hooks useSubscription and useLive
 * call `subscribe`; nothing here knows about React.
 */

import { warnOnce } from '../../../base/env.js';
import { describe, setupError, type DevText } from '../../../base/errors.js';
import { isSkipArgs } from '../../../base/json.js';
import { checkFlag, checkPollFrequency } from '../../../base/endpointOptions.js';
import { checkEndpointOptions, requestKey, type EndpointLike } from '../../endpoint.js';
import type { ListenerOptions, ListenerSource } from '../../runtime/Feature.js';
import type { StoreRuntime } from '../../runtime/StoreRuntime.js';
import type { Pollers } from './Pollers.js';

const ignore = (): void => undefined;

/**
 * Subscribes to `endpoint` for args: the request key is held (as a mounted hook holds it, so
 * refetch-on-focus and garbage collection see it) and, when the endpoint has `pollFrequency`,
 * polled. Returns `unsubscribe` (a second call does nothing). `null` params subscribe to nothing.
 */
export function subscribe(
  runtime: StoreRuntime,
  pollers: Pollers,
  endpoint: EndpointLike,
  args: readonly unknown[],
): () => void {
  if (isSkipArgs(args)) return ignore;
  if (endpoint.sideEffect) {
    throw setupError(
      'MUTATION_IN_HOOK',
      process.env.NODE_ENV !== 'production' && [
        `A subscription was asked for ${describe(endpoint)}, a mutation: polling it would send the mutation again every period.`,
        'Subscribe to reads only. Send mutations when they happen: with useMutation(endpoint) in a component (or useController().fetch), with controller.fetch(endpoint, ...args) elsewhere.',
      ],
    );
  }
  const key = requestKey(endpoint, args);
  const frequency = checkPollFrequency(endpoint.pollFrequency, key);
  // Any object can be an endpoint: its options are checked here, before anything is held or sent.
  checkEndpointOptions(endpoint, key, runtime.features.names);
  if (frequency !== undefined && !canFetch(endpoint)) {
    throw setupError(
      'INVALID_SCHEMA',
      process.env.NODE_ENV !== 'production' && [
        `${key} has pollFrequency but cannot fetch: it has neither request() nor fetch().`,
        'Poll a RestEndpoint, or give the endpoint a fetch(...args) method returning a promise of the response.',
      ],
    );
  }
  if (process.env.NODE_ENV !== 'production' && frequency === undefined) {
    warnOnce(
      `A subscription to ${key} polls nothing: its endpoint has no pollFrequency. Give it one (endpoint.extend({ pollFrequency: 5_000 })) to poll.`,
    );
  }
  const read = { target: endpoint, args };
  const releases = [
    runtime.subscriptions.retain('request', key, read),
    runtime.subscriptions.retain('subscription', key, read),
  ];
  if (frequency !== undefined) {
    releases.push(
      pollers.add(key, frequency, {
        poll: stop => quietly(() => runtime.fetch(endpoint, args, stop)),
        pending: () => runtime.requests.pending(key),
        written: () => {
          const meta = runtime.state().meta[key];
          // An invalidation is not an answer: the poll stays due.
          return meta && !meta.invalidated ? meta.date : undefined;
        },
      }),
    );
  }
  return () => {
    for (const release of releases.splice(0)) release();
  };
}

/**
 * Refetches what is held (mounted hooks, subscriptions) and stale or invalid when the app regains
 * focus and when it comes back online: told by `onFocus` and `onOnline` when given, else by the
 * window (focus, the page visible again, `online`; nothing without a window). Returns `remove()`.
 */
export function setupListeners(runtime: StoreRuntime, options: ListenerOptions = {}): () => void {
  const flag = (option: 'refetchOnFocus' | 'refetchOnReconnect'): boolean =>
    checkFlag(
      options?.[option],
      option,
      process.env.NODE_ENV !== 'production' && 'setupListeners',
      'INVALID_OPTION',
      true,
    ) ?? true;
  const refetchOnFocus = flag('refetchOnFocus');
  const refetchOnReconnect = flag('refetchOnReconnect');
  const onFocus = checkSource(options?.onFocus, process.env.NODE_ENV !== 'production' && 'onFocus');
  const onOnline = checkSource(options?.onOnline, process.env.NODE_ENV !== 'production' && 'onOnline');
  const target = (globalThis as { window?: EventTarget }).window;
  const doc = (globalThis as { document?: EventTarget & { visibilityState?: string } }).document;
  const removes: Array<() => void> = [];
  let live = true;
  const remove = (): void => {
    live = false;
    for (const stop of removes.splice(0)) stop();
  };
  // A source that calls after its removal (an event already on its way) refetches nothing.
  const refetch = (): void => {
    if (live) refetchHeld(runtime);
  };
  const listen = (on: EventTarget | undefined, type: string, listener: () => void): void => {
    if (typeof on?.addEventListener !== 'function') return;
    on.addEventListener(type, listener);
    removes.push(() => on.removeEventListener(type, listener));
  };
  const use = (source: ListenerSource, name: DevText): void => {
    const stop = source(refetch);
    if (typeof stop !== 'function') {
      remove();
      throw setupError(
        'INVALID_OPTION',
        process.env.NODE_ENV !== 'production' && [
          `setupListeners' ${name} returned ${describe(stop)}, not the function that stops it.`,
          'Return the removal, e.g. return () => subscription.remove(); for a subscription object.',
        ],
      );
    }
    removes.push(stop);
  };
  if (refetchOnFocus && onFocus) use(onFocus, process.env.NODE_ENV !== 'production' && 'onFocus');
  else if (refetchOnFocus && typeof target?.addEventListener === 'function') {
    listen(target, 'focus', refetch);
    listen(doc, 'visibilitychange', () => doc?.visibilityState !== 'hidden' && refetch());
  }
  if (refetchOnReconnect && onOnline) use(onOnline, process.env.NODE_ENV !== 'production' && 'onOnline');
  else if (refetchOnReconnect) listen(target, 'online', refetch);
  return remove;
}

/** A listener source option: a function or nothing; anything else is INVALID_OPTION. */
function checkSource(source: unknown, name: DevText): ListenerSource | undefined {
  if (source === undefined || typeof source === 'function') return source as ListenerSource | undefined;
  throw setupError(
    'INVALID_OPTION',
    process.env.NODE_ENV !== 'production' && [
      `setupListeners' ${name} must be a function (refetch) => unsubscribe, but it is ${describe(source)}.`,
      `Pass e.g. ${name}: refetch => { const subscription = AppState.addEventListener('change', state => state === 'active' && refetch()); return () => subscription.remove(); } (docs/live-data.md, "Other sources of focus and reconnect"), or leave it out to listen to the window.`,
    ],
  );
}

/**
 * Refetches every held request whose response is not valid now. Valid data is left alone; a
 * focus and a visibility change together share one request per key (requests in flight are
 * joined).
 */
export function refetchHeld(runtime: StoreRuntime): void {
  for (const [, read] of runtime.subscriptions.held('request')) {
    const endpoint = read.target as EndpointLike;
    if (endpoint.sideEffect || !canFetch(endpoint)) continue;
    if (runtime.controller.getResponse(endpoint, ...read.args).expiryStatus === 'valid') continue;
    void quietly(() => runtime.controller.fetch(endpoint, ...read.args));
  }
}

/** Whether `endpoint` can send a request (runtime/Requests.ts, runnerOf). */
function canFetch(endpoint: EndpointLike): boolean {
  return typeof endpoint.request === 'function' || typeof endpoint.fetch === 'function';
}

/** Runs a fetch whose failure is stored (and read through selectResponse): settles, never rejects. */
function quietly(fetch: () => Promise<unknown>): Promise<void> {
  try {
    return fetch().then(ignore, ignore);
  } catch {
    return Promise.resolve();
  }
}

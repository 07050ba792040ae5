/**
 * The outbox feature (docs/outbox.md): the mutations of the endpoints it is given wait in an
 * outbox while the app is offline, their guesses shown; the outbox is stored (localStorage, or the
 * storage the app gives) and read back when a store mounts on the next visit, its guesses shown
 * again; online, the entries are sent one at a time, in order, and each answer or refusal is
 * written as any mutation's (docs/architecture.md, "Ordering").
 */

import { describe, setupError } from '../../../base/errors.js';
import type { EndpointLike } from '../../endpoint.js';
import type { Feature } from '../../runtime/StoreRuntime.js';
import type { StoreLike } from '../../types.js';
import { restoredEntries } from './entries.js';
import { Queue, type OutboxStorage, type Waiting } from './Queue.js';

export type { OutboxStorage } from './Queue.js';

/** outbox's options (docs/outbox.md). */
export interface OutboxOptions {
  /**
   * The mutations that wait while offline, by a name that stays the same between versions of the
   * app: an entry is stored with its endpoint's name, and restored only if the name is here.
   */
  endpoints: Record<string, EndpointLike | object>;
  /** Where entries are kept: default `localStorage` in a browser window, none elsewhere (kept in memory). */
  storage?: OutboxStorage | undefined;
  /** The storage key; default `lenscache:outbox:<reducerPath>`. */
  key?: string;
  /** Whether the app is online now; default `navigator.onLine` (online where there is no navigator). */
  isOnline?: () => boolean;
  /** Calls `resume` each time the app comes back online, and returns the function that stops it; default the window's `online` event. */
  onOnline?: (resume: () => void) => () => void;
  /** Told each refusal of an entry, each stored entry that could not be restored, and each storage failure; default `console.error` in development. */
  onError?: (error: unknown) => void;
  /** How many entries may wait (default 100); the next mutation is refused with OUTBOX_FULL. */
  cap?: number;
}

/** The outbox feature, with what each store's outbox holds. */
export interface Outbox extends Feature<'outbox'> {
  /** How many mutations wait in `store`'s outbox (being sent included). */
  waiting(store: StoreLike): number;
  /** Sends `store`'s waiting mutations now, if online (after a network failure, without waiting for an `online` event). */
  flush(store: StoreLike): void;
}

/**
 * The outbox feature: `createLeanCache({ features: [...features, outbox({ endpoints })] })`.
 *
 * @example
 * ```ts
 * const cache = createLeanCache({
 *   features: [garbageCollection, optimisticUpdates, outbox({ endpoints: { updatePost: PostResource.partialUpdate } })],
 * });
 * ```
 */
export function outbox(options: OutboxOptions): Outbox {
  const { endpoints, key, isOnline = navigatorOnline, onOnline = windowOnline, onError = reportError } = options ?? {};
  const { storage = defaultStorage(), cap = 100 } = options ?? {};
  check(
    endpoints,
    isRecord(endpoints),
    'endpoints',
    '{ name: endpoint }, e.g. { updatePost: PostResource.partialUpdate }',
    false,
  );
  check(storage, isStorage(storage), 'storage', 'an object with getItem and setItem, e.g. localStorage');
  check(key, typeof key === 'string' && key !== '', 'key', "a non-empty string, e.g. 'app:outbox'");
  for (const [name, fn] of Object.entries({ isOnline, onOnline, onError }))
    check(fn, typeof fn === 'function', name, 'a function');
  check(cap, Number.isSafeInteger(cap) && cap > 0, 'cap', 'a whole number above 0, e.g. 100');
  // The name of each endpoint, by the endpoint.
  const names = new Map<object, string>();
  for (const name of Object.keys(endpoints)) {
    check(endpoints[name], isRecord(endpoints[name]), `endpoints.${name}`, 'an endpoint', false);
    names.set(endpoints[name]!, name);
  }
  const queues = new WeakMap<object, Queue>();
  return {
    name: 'outbox',
    waiting: store => queues.get(store.getState)?.items.length ?? 0,
    flush: store => queues.get(store.getState)?.pump(),
    install(runtime) {
      const storageKey = key ?? `lenscache:outbox:${runtime.parts.reducerPath}`;
      const queue = new Queue({
        cap,
        key: storageKey,
        storage,
        online: isOnline,
        onError,
        stamp: () => runtime.stamp(),
      });
      queues.set(runtime.store.getState, queue);
      onOnline(() => queue.pump());
      // Restored entries, by the args their requests are started with.
      const restoring = new WeakMap<readonly unknown[], Waiting>();
      const restore = (text: unknown): void => {
        const items: Waiting[] = restoredEntries(text, endpoints, cap, onError).map(entry => ({ entry }));
        queue.items.unshift(...items);
        queue.ready = true;
        queue.save();
        // Each is started again as the request it was: its guess is shown, and it waits its turn.
        for (const item of items) start(item, endpoints[item.entry.endpoint] as EndpointLike);
        queue.pump();
      };
      const start = (item: Waiting, endpoint: EndpointLike): void => {
        const args = [...item.entry.args];
        restoring.set(args, item);
        const failed = (error: unknown): void => {
          if (item.send) return;
          onError(error);
          // A guess that cannot be computed over what the store holds now: sent without it.
          if (endpoint.getOptimisticResponse) start(item, Object.create(endpoint, { getOptimisticResponse: {} }));
          else queue.drop(item);
        };
        try {
          runtime.fetch(endpoint, args).catch(failed);
        } catch (error) {
          failed(error);
        }
      };
      // Read back once the store exists (its middleware is being made now).
      queueMicrotask(() => {
        let text: unknown;
        try {
          text = storage?.getItem(storageKey);
        } catch (error) {
          onError(error);
        }
        if (typeof (text as Promise<unknown> | undefined)?.then !== 'function') return restore(text);
        (text as Promise<unknown>).then(restore, error => {
          onError(error);
          restore(null);
        });
      });
      return {
        sending(request, send, stop) {
          // (A restored entry started without its guess has an endpoint of its own.)
          const item = restoring.get(request.args);
          const name = item?.entry.endpoint ?? names.get(request.endpoint);
          if (name === undefined) return send();
          restoring.delete(request.args);
          return queue.hold(request, name, send, stop, item);
        },
        settling: (_, start) => queue.settled(start),
        // (The requests were dropped: each waiting one's promise rejects with the reset's reason.)
        reset: () => queue.clear(),
      };
    },
  };
}

function isRecord(value: unknown): value is Record<string, object> {
  return typeof value === 'object' && value !== null;
}

function isStorage(value: unknown): boolean {
  const storage = value as Partial<OutboxStorage> | null;
  return typeof storage?.getItem === 'function' && typeof storage.setItem === 'function';
}

/** `navigator.onLine`; online where there is no navigator (a server, a test without one). */
function navigatorOnline(): boolean {
  return (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine !== false;
}

/** The window's `online` event; nothing outside a browser window. */
function windowOnline(resume: () => void): () => void {
  const scope = globalThis as { window?: Pick<Window, 'addEventListener' | 'removeEventListener'> };
  scope.window?.addEventListener('online', resume);
  return () => scope.window?.removeEventListener('online', resume);
}

/** `localStorage` in a browser window (none where reading it throws: storage disabled); none elsewhere. */
function defaultStorage(): OutboxStorage | undefined {
  try {
    const scope = globalThis as { window?: unknown; localStorage?: OutboxStorage };
    return scope.window === undefined ? undefined : scope.localStorage;
  } catch {
    return undefined;
  }
}

function reportError(error: unknown): void {
  if (process.env.NODE_ENV !== 'production') console.error(error);
}

function check(value: unknown, fine: boolean, name: string, takes: string, optional = true): void {
  if ((optional && value === undefined) || fine) return;
  throw setupError(
    'INVALID_OPTION',
    process.env.NODE_ENV !== 'production' && [
      `outbox({ ${name} }) takes ${takes}, but received ${describe(value)}.`,
      optional ? `Pass ${takes}, or leave it out.` : `Pass ${takes}.`,
    ],
  );
}

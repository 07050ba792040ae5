/**
 * The cross-tab feature (docs/crossTab.md): the tabs of one origin share their confirmed writes
 * over a BroadcastChannel. After each answer a store writes, the members it changed (never a
 * guess) go to the other tabs, which merge them with `hydrate`: under the ordering rules, and
 * with its checks. A tab that opens asks the others for what they hold.
 */

import { describe, inputError, setupError, type DevText } from '../../../base/errors.js';
import { isPlainRecord } from '../../../base/dict.js';
import type { CacheState } from '../../../base/state.js';
import type { Feature } from '../../runtime/StoreRuntime.js';
import { hydrate } from '../../serverState.js';
import type { StoreLike } from '../../types.js';
import { confirmedPart } from './confirmedPart.js';

/** What crossTab uses of a BroadcastChannel (the browser's, Node's, or a stand-in). */
export interface TabChannel {
  postMessage(message: unknown): void;
  close(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onmessageerror?: ((event: unknown) => void) | null;
  /** Node's: lets the process exit while the channel is open. */
  unref?(): void;
}

/** crossTab's options (docs/crossTab.md). */
export interface CrossTabOptions {
  /** The channel's name; default `lenscache:<reducerPath>`. Tabs share writes only on the same name. */
  channel?: string;
  /**
   * Makes the channel: default the global `BroadcastChannel` in a browser window, and none
   * elsewhere (a server's stores never share). Pass one for tests, workers or other hosts.
   */
  BroadcastChannel?: new (name: string) => TabChannel;
  /** Told each message refused (UNEXPECTED_INPUT) or failure to send; default `console.error` in development. */
  onError?: (error: unknown) => void;
}

/** The crossTab feature, with the way to close a store's channel. */
export interface CrossTab extends Feature<'crossTab'> {
  /** Closes `store`'s channel: it neither sends nor receives from then on. */
  close(store: StoreLike): void;
}

/** A message between tabs: a tab's hello, or a part of a slice (to one tab, when it answers a hello). */
interface TabMessage {
  path: string;
  from: string;
  hello?: true;
  to?: string;
  state?: Partial<CacheState>;
}

/**
 * The cross-tab feature: `createLeanCache({ features: [...features, crossTab()] })`. Each store
 * the cache is mounted in opens a channel; close it with `close(store)`.
 *
 * @example
 * ```ts
 * const cache = createLeanCache({ features: [garbageCollection, optimisticUpdates, crossTab()] });
 * ```
 */
export function crossTab(options: CrossTabOptions = {}): CrossTab {
  const { channel: name, BroadcastChannel: Channel = defaultChannel(), onError = reportError } = options;
  checkOption(name, typeof name === 'string' && name !== '', 'channel', "a non-empty string, e.g. 'app:v2'");
  checkOption(Channel, typeof Channel === 'function', 'BroadcastChannel', 'a constructor, e.g. BroadcastChannel');
  checkOption(onError, typeof onError === 'function', 'onError', 'a function, e.g. error => report(error)');
  // Each store's channel, by the store's getState (as the cache finds a store's runtime).
  const channels = new WeakMap<object, TabChannel>();
  return {
    name: 'crossTab',
    close(store) {
      channels.get(store.getState)?.close();
      channels.delete(store.getState);
    },
    install(runtime) {
      if (!Channel) return {};
      const path = runtime.parts.reducerPath;
      const channel = new Channel(name ?? `lenscache:${path}`);
      channel.unref?.();
      channels.set(runtime.store.getState, channel);
      const from = Math.random().toString(36).slice(2);
      const post = (message: Omit<TabMessage, 'path' | 'from'>): void => {
        if (channels.get(runtime.store.getState) !== channel) return;
        try {
          channel.postMessage({ path, from, ...message });
        } catch (error) {
          onError(error);
        }
      };
      channel.onmessage = ({ data }) => {
        try {
          const message = messageOf(data);
          // Another cache's message on a shared channel, or an answer to another tab's hello.
          if (message.path !== path || (message.to !== undefined && message.to !== from)) return;
          if (message.hello) {
            const state = confirmedPart(runtime.state(), undefined);
            if (state) post({ to: message.from, state });
          } else runtime.store.dispatch(hydrate({ reducerPath: path }, message.state) as never);
        } catch (error) {
          onError(error);
        }
      };
      channel.onmessageerror = () => onError(refused(process.env.NODE_ENV !== 'production' && 'it could not be read'));
      post({ hello: true });
      // The slice before each answer's write; after it, what the write changed goes out.
      let before: CacheState | undefined;
      return {
        settling() {
          before = runtime.state();
        },
        written() {
          const state = before && confirmedPart(runtime.state(), before);
          before = undefined;
          if (state) post({ state });
        },
      };
    },
  };
}

/** The global BroadcastChannel in a browser window; none elsewhere (a server's stores never share). */
function defaultChannel(): CrossTabOptions['BroadcastChannel'] {
  const scope = globalThis as { window?: unknown; BroadcastChannel?: CrossTabOptions['BroadcastChannel'] };
  return scope.window === undefined ? undefined : scope.BroadcastChannel;
}

function reportError(error: unknown): void {
  if (process.env.NODE_ENV !== 'production') console.error(error);
}

/** `data` as a message between tabs, or UNEXPECTED_INPUT (its state is checked by hydrate). */
function messageOf(data: unknown): TabMessage {
  if (!isPlainRecord(data) || typeof data.path !== 'string' || typeof data.from !== 'string')
    throw refused(process.env.NODE_ENV !== 'production' && `it is ${describe(data)}, not { path, from, ... }`);
  if (data.to !== undefined && typeof data.to !== 'string')
    throw refused(process.env.NODE_ENV !== 'production' && `its to is ${describe(data.to)}, not a string`);
  if (data.hello !== true && !isPlainRecord(data.state))
    throw refused(process.env.NODE_ENV !== 'production' && `its state is ${describe(data.state)}, not an object`);
  return data as unknown as TabMessage;
}

function refused(what: DevText): Error {
  return inputError(
    'UNEXPECTED_INPUT',
    process.env.NODE_ENV !== 'production' && [
      `crossTab received a message from another tab that it cannot merge: ${what as string}. Nothing was written.`,
      'Only lenscache should post on the channel: give crossTab({ channel }) a name nothing else uses.',
    ],
  );
}

function checkOption(value: unknown, fine: boolean, name: string, takes: string): void {
  if (value === undefined || fine) return;
  throw setupError(
    'INVALID_OPTION',
    process.env.NODE_ENV !== 'production' && [
      `crossTab({ ${name} }) takes ${takes}, but received ${describe(value)}.`,
      `Pass ${takes}, or leave it out.`,
    ],
  );
}

/**
 * One store's outbox (docs/outbox.md): the mutations of the outbox's endpoints, in the order they
 * were made, sent one at a time while the app is online. The head is sent; its answer or refusal
 * goes back to its request, which writes it as any mutation's; the next is sent once that answer
 * has been stamped (`settled`), so each answer is newer than the one before. A network failure
 * keeps the head, which waits for the next `online` event or `flush`. Every change is stored.
 */

import { toJsonValue } from '../../../base/checkRow.js';
import { isRetryable } from '../../../base/endpointOptions.js';
import { setupError } from '../../../base/errors.js';
import type { OutgoingRequest } from '../../runtime/Feature.js';
import type { StoredEntry } from './entries.js';

/** Where the outbox is kept between visits: `localStorage`, redux-persist's storage, AsyncStorage. */
export interface OutboxStorage {
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>;
  setItem(key: string, value: string): unknown;
}

/** A mutation in the outbox: what is stored, and its request once the store has started it. */
export interface Waiting {
  readonly entry: StoredEntry;
  request?: OutgoingRequest;
  send?: () => Promise<unknown>;
  settle?: { resolve(value: unknown): void; reject(error: unknown): void };
  /** Removes its abort listener. */
  done?: () => void;
  /** Why its request was stopped (the reason of the first of its signals that aborted). */
  stopped?: () => unknown;
}

/** What a store's queue is given by the outbox. */
export interface QueueParts {
  readonly cap: number;
  readonly key: string;
  readonly storage: OutboxStorage | undefined;
  readonly online: () => boolean;
  readonly onError: (error: unknown) => void;
  /** The runtime's start clock: a held mutation is stamped again as it is sent. */
  readonly stamp: () => number;
}

export class Queue {
  readonly items: Waiting[] = [];
  /** Whether the stored entries were read back (nothing is stored or sent before). */
  ready = false;
  /** The start of the head that was sent, until its outcome is stamped (`settled`). */
  private sentStart: number | undefined = undefined;
  /** The text to store next, while an asynchronous `setItem` runs. */
  private unsaved: string | undefined = undefined;
  private saving = false;

  constructor(private readonly parts: QueueParts) {}

  /**
   * Holds `request` (a mutation of an outbox endpoint) until its turn: `item` when it was restored,
   * else a new entry, stored at once. Resolves or rejects as its send does.
   */
  hold(
    request: OutgoingRequest,
    name: string,
    send: () => Promise<unknown>,
    stop: readonly AbortSignal[],
    item?: Waiting,
  ) {
    if (!item) {
      if (this.items.length >= this.parts.cap) return Promise.reject(full(this.parts.cap));
      // Stored as JSON: what cannot be (a Blob, a function) is refused before anything waits.
      item = { entry: { endpoint: name, args: toJsonValue([...request.args], 'the mutation’s args') } };
      this.items.push(item);
      this.save();
    }
    const waiting = item;
    waiting.request = request;
    waiting.send = send;
    // The request's own signal (the first): an abort takes it out. A reset is `clear`: listening to
    // the store's reset signal would add a listener per waiting entry to one signal.
    const [signal] = stop;
    return new Promise((resolve, reject) => {
      const aborted = (): void => {
        this.drop(waiting);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', aborted);
      waiting.done = () => signal?.removeEventListener('abort', aborted);
      waiting.stopped = () => stop.find(one => one.aborted)?.reason;
      waiting.settle = { resolve, reject };
      if (signal?.aborted) aborted();
      else this.pump();
    });
  }

  /** Sends the head, when the entries were read back, the app is online and nothing is being sent. */
  pump(): void {
    const head = this.items[0];
    if (!this.ready || this.sentStart !== undefined || !head?.send || !this.parts.online()) return;
    this.sentStart = head.request!.start;
    head.request!.sent = this.parts.stamp();
    head.send().then(
      answer => this.answered(head, false, answer),
      (error: unknown) => this.answered(head, true, error),
    );
  }

  /** The head's send settled: a network failure keeps it; an answer or a refusal ends it. */
  private answered(head: Waiting, failed: boolean, outcome: unknown): void {
    if (this.items[0] !== head) return;
    if (failed && isNetworkFailure(outcome)) {
      this.sentStart = undefined;
      return;
    }
    this.items.shift();
    this.save();
    head.done?.();
    if (!failed) head.settle!.resolve(outcome);
    else {
      this.parts.onError(outcome);
      head.settle!.reject(outcome);
    }
  }

  /** A request's outcome was stamped: when it was the head's, the next may be sent. */
  settled(start: number): void {
    if (this.sentStart !== start) return;
    this.sentStart = undefined;
    queueMicrotask(() => this.pump());
  }

  /** Takes `item` out (its request was aborted, or could not start), and stores what is left. */
  drop(item: Waiting): void {
    const at = this.items.indexOf(item);
    if (at === -1) return;
    this.items.splice(at, 1);
    item.done?.();
    if (at === 0 && this.sentStart === item.request?.start) this.sentStart = undefined;
    this.save();
    // (Later: a reset drops every entry first, and none of them is sent.)
    queueMicrotask(() => this.pump());
  }

  /** A reset: every entry goes (a sign-out never sends its edits under the next session). */
  clear(): void {
    for (const item of this.items.splice(0)) {
      item.done?.();
      item.settle?.reject(item.stopped?.());
    }
    this.sentStart = undefined;
    this.save();
  }

  /** Stores the entries; the latest text wins, each write after the one before it. */
  save(): void {
    if (!this.ready || !this.parts.storage) return;
    this.unsaved = JSON.stringify(this.items.map(item => item.entry));
    if (!this.saving) this.write();
  }

  private write(): void {
    for (let text = this.unsaved; text !== undefined; text = this.unsaved) {
      this.unsaved = undefined;
      let done: unknown;
      try {
        done = this.parts.storage!.setItem(this.parts.key, text);
      } catch (error) {
        this.parts.onError(error);
      }
      if (typeof (done as Promise<unknown> | undefined)?.then === 'function') {
        this.saving = true;
        (done as Promise<unknown>).then(undefined, this.parts.onError).then(() => {
          this.saving = false;
          this.write();
        });
        return;
      }
    }
  }
}

/** A failure with no answer (the network, a time limit): the mutation may not have arrived, and waits. */
function isNetworkFailure(error: unknown): boolean {
  return typeof (error as { status?: unknown } | null)?.status !== 'number' && isRetryable(error);
}

function full(cap: number): Error {
  return setupError(
    'OUTBOX_FULL',
    process.env.NODE_ENV !== 'production' && [
      `The outbox holds ${cap} mutations waiting to be sent, its most; this one was refused and its guess taken out.`,
      'Let the app come back online to send them, or give outbox({ cap }) a higher bound.',
    ],
  );
}

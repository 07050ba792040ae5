/**
 * The pollers of one store (docs/live-data.md#polling): one per request key that something
 * subscribes to, however many subscribers, polling at the shortest frequency any of them asks.
 * Owned by the store's runtime; an entry lives from its first subscriber to its last.
 *
 * Timing: the next poll is due one period after the key was last answered (a poll, or any other
 * request's answer), so a poll is never sent while a request for the key is in flight, a slow
 * answer pushes the next poll back instead of piling requests up, and a fresh answer from
 * elsewhere (a refetch, a mutation's write) counts as a poll.
 */

import { startTimer } from '../../../base/timers.js';

/** What the runtime supplies to poll one key. */
export interface PollTarget {
  /** Sends the poll (or joins the request in flight for the key); settles when it is answered. */
  poll(stopRetries: AbortSignal): Promise<unknown>;
  /** The request in flight for the key now, if any. */
  pending(): Promise<unknown> | undefined;
  /** When the key's stored response was last written (epoch ms), if it ever was. */
  written(): number | undefined;
}

interface Poller {
  readonly target: PollTarget;
  /** One frequency per subscriber (the same frequency may appear several times). */
  readonly frequencies: number[];
  /** Cancels the timer of the next poll (startTimer: any period, however long). */
  cancel: (() => void) | undefined;
  /** Aborted when the last subscriber leaves: retries of the polls this poller sent stop. */
  readonly stop: AbortController;
  /** A poll or a joined request is running: no timer is set until it settles. */
  busy: boolean;
  /** When the last poll this poller waited on settled. */
  last: number;
  /** The key's write time the current timer was set from: another write since counts as a poll. */
  seen: number | undefined;
}

export class Pollers {
  /** @internal What polls each key (tests read it, and `pollPeriod`). */
  readonly pollers = new Map<string, Poller>();
  /** Keys whose poll came due while the page was hidden or offline: polled when it is back. */
  private readonly waiting = new Set<string>();
  /** Removes the listeners that end the wait (set while some key waits). */
  declare private unlisten: (() => void) | undefined;

  /**
   * Adds a subscriber of `key` that asks for a poll every `frequency` ms; the returned function
   * removes it (a second call does nothing). The first subscriber starts the key's poller, the
   * last one to leave stops it.
   */
  add(key: string, frequency: number, target: PollTarget): () => void {
    let poller = this.pollers.get(key);
    if (!poller) {
      poller = {
        target,
        frequencies: [],
        cancel: undefined,
        stop: new AbortController(),
        busy: false,
        last: -Infinity,
        seen: undefined,
      };
      this.pollers.set(key, poller);
    }
    const before = shortest(poller);
    poller.frequencies.push(frequency);
    if (shortest(poller) !== before) this.schedule(key, poller);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      const held = this.pollers.get(key);
      if (held !== poller) return;
      const was = shortest(poller);
      poller.frequencies.splice(poller.frequencies.indexOf(frequency), 1);
      if (poller.frequencies.length === 0) {
        poller.cancel?.();
        poller.stop.abort();
        this.pollers.delete(key);
        this.unwait(key);
      } else if (shortest(poller) !== was) this.schedule(key, poller);
    };
  }

  /** Holds `key`'s poll until the page is visible and online, listening for that while any key waits. */
  private wait(key: string): void {
    this.waiting.add(key);
    if (this.unlisten) return;
    const { document, window } = globalThis as { document?: EventTarget; window?: EventTarget };
    const resume = (): void => {
      if (paused()) return;
      const keys = [...this.waiting];
      this.waiting.clear();
      this.unlisten?.();
      this.unlisten = undefined;
      for (const waited of keys) {
        const poller = this.pollers.get(waited);
        if (poller) this.tick(waited, poller);
      }
    };
    document?.addEventListener?.('visibilitychange', resume);
    window?.addEventListener?.('online', resume);
    this.unlisten = () => {
      document?.removeEventListener?.('visibilitychange', resume);
      window?.removeEventListener?.('online', resume);
    };
  }

  private unwait(key: string): void {
    if (!this.waiting.delete(key) || this.waiting.size > 0) return;
    this.unlisten?.();
    this.unlisten = undefined;
  }

  /** (Re)sets the timer for the next poll: one period after the key was last answered. */
  private schedule(key: string, poller: Poller): void {
    poller.cancel?.();
    poller.cancel = undefined;
    if (poller.busy || this.pollers.get(key) !== poller) return;
    const now = Date.now();
    poller.seen = poller.target.written();
    // A stored answer dated ahead of this clock (state from a server whose clock runs ahead)
    // counts as answered now.
    const due = Math.max(poller.last, Math.min(poller.seen ?? -Infinity, now)) + shortest(poller);
    poller.cancel = startTimer(() => this.tick(key, poller), Math.max(0, due - now));
  }

  private tick(key: string, poller: Poller): void {
    poller.cancel = undefined;
    if (this.pollers.get(key) !== poller) return;
    // Nobody sees a hidden page, and an offline one cannot be answered: the poll waits for the
    // page to be visible and online again, and is sent then (docs/live-data.md#polling).
    if (paused()) {
      this.wait(key);
      return;
    }
    const pending = poller.target.pending();
    // Answered since the timer was set (another request for the key): that answer was the poll.
    if (!pending && poller.target.written() !== poller.seen) {
      this.schedule(key, poller);
      return;
    }
    poller.busy = true;
    const settled = (): void => {
      poller.busy = false;
      poller.last = Date.now();
      this.schedule(key, poller);
    };
    // Joining the request in flight rather than sending another: polls never overlap a request.
    // A poll's retries stop with the poller: nobody is left to show what they would bring.
    // The attempt in flight may still answer, but no retry is sent after the last subscriber left.
    (pending ?? poller.target.poll(poller.stop.signal)).then(settled, settled);
  }
}

/** Whether polls wait: the page is hidden, or the browser says it is offline. Never outside a browser. */
function paused(): boolean {
  const { document, navigator } = globalThis as {
    document?: { visibilityState?: string };
    navigator?: { onLine?: boolean };
  };
  return document?.visibilityState === 'hidden' || navigator?.onLine === false;
}

function shortest(poller: Poller): number {
  return poller.frequencies.length === 0 ? Infinity : Math.min(...poller.frequencies);
}

/**
 * The period `pollers` poll `key` at now, or `undefined` when nothing polls it. A function, not a
 * method: only tests ask, so a bundle leaves it out.
 */
export function pollPeriod(pollers: Pollers, key: string): number | undefined {
  const poller = pollers.pollers.get(key);
  return poller ? shortest(poller) : undefined;
}

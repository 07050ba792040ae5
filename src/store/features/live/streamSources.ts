/**
 * The browser's stream sources for `connectStream` (docs/live-data.md#streams): an `EventSource`
 * (which reconnects by itself) and a `WebSocket` (reconnected here, with backoff, after a dropped
 * connection; a clean close by the server ends the stream).
 */

import {
  describe,
  type ErrorCode,
  errorMessage,
  LensCacheError,
  setupError,
  type DevText,
} from '../../../base/errors.js';
import { checkDelay, defaultRetryDelay } from '../../../base/endpointOptions.js';
import { startTimer } from '../../../base/timers.js';
import type { StreamSource } from './stream.js';

/** A source of the `data` of each message of an `EventSource` (server-sent events) at `url`. */
export function fromEventSource(url: string, init?: EventSourceInit): StreamSource {
  return (emit, fail) => {
    const source = new EventSource(url, init);
    source.onmessage = event => emit(event.data);
    // EventSource reconnects by itself; an error with the source closed is final.
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED)
        fail(
          streamError(
            'STREAM_FAILED',
            url,
            process.env.NODE_ENV !== 'production' && `The event stream ${url} closed for good`,
          ),
        );
    };
    return () => source.close();
  };
}

export interface WebSocketSourceOptions {
  /**
   * Reconnect after the connection drops (any close but a clean one by the server). `attempts`:
   * how many reconnects in a row may fail before the stream gives up (default `Infinity`);
   * `delay(attempt)`: the wait in ms before reconnect number `attempt` since the last connection
   * that opened (default 1 s, doubling, at most 30 s). `false`: never reconnect.
   */
  reconnect?: false | { attempts?: number; delay?: (attempt: number) => number };
}

/**
 * Close codes that are clean but say "come back": the server is going away or restarting
 * (1001, 1012), or asks to try again later (1013). Every other clean close ends the stream.
 */
const COME_BACK = new Set([1001, 1012, 1013]);

/**
 * A source of the messages of a WebSocket at `url`. A clean close by the server ends the stream
 * (`onClose`); a dropped connection is reported (`STREAM_DROPPED`) and reconnected after a
 * backoff, until `reconnect.attempts` reconnects in a row have failed (then `STREAM_FAILED`).
 */
export function fromWebSocket(
  url: string,
  protocols?: string | string[],
  options: WebSocketSourceOptions = {},
): StreamSource {
  const reconnect = reconnectOf(options?.reconnect, url);
  return (emit, fail, end) => {
    let socket: WebSocket | undefined;
    let cancel: (() => void) | undefined;
    let closing = false;
    /** Drops since a connection last opened. */
    let drops = 0;
    const connect = (): void => {
      cancel = undefined;
      const current = new WebSocket(url, protocols);
      socket = current;
      current.onopen = () => {
        drops = 0;
      };
      current.onmessage = event => emit(event.data);
      // An error event is always followed by a close event, which reports it.
      current.onclose = event => {
        if (closing || socket !== current) return;
        // Nothing more is taken from this socket, whatever it does next.
        current.onopen = current.onmessage = current.onclose = null;
        const { code, reason, wasClean } = event;
        if (wasClean && !COME_BACK.has(code)) return end({ code, reason });
        drops++;
        if (!reconnect || drops > reconnect.attempts) {
          const tries = reconnect ? ` after ${reconnect.attempts} reconnects` : '';
          return fail(
            streamError(
              'STREAM_FAILED',
              url,
              process.env.NODE_ENV !== 'production' && `The WebSocket ${url} closed (code ${code})${tries}`,
            ),
          );
        }
        let ms: number;
        try {
          ms = checkDelay(reconnect.delay(drops), drops, process.env.NODE_ENV !== 'production' && 'reconnect.delay');
        } catch (error) {
          return fail(error);
        }
        fail(
          streamError(
            'STREAM_DROPPED',
            url,
            process.env.NODE_ENV !== 'production' &&
              `The WebSocket ${url} dropped (code ${code}); it is reconnected in ${ms} ms`,
          ),
        );
        cancel = startTimer(() => {
          try {
            connect();
          } catch (error) {
            // A timer has no caller: the failure goes to the stream.
            fail(error);
          }
        }, ms);
      };
    };
    connect();
    return () => {
      closing = true;
      cancel?.();
      socket?.close();
    };
  };
}

interface Reconnect {
  attempts: number;
  delay: (attempt: number) => number;
}

function reconnectOf(option: unknown, url: string): Reconnect | undefined {
  if (option === false) return undefined;
  const { attempts = Infinity, delay = defaultRetryDelay } = (option ?? {}) as Partial<Reconnect>;
  const fine =
    (option === undefined || (typeof option === 'object' && option !== null)) &&
    typeof attempts === 'number' &&
    (attempts === Infinity || (Number.isInteger(attempts) && attempts >= 0)) &&
    typeof delay === 'function';
  if (!fine) {
    throw setupError(
      'INVALID_SCHEMA',
      process.env.NODE_ENV !== 'production' && [
        `fromWebSocket(${JSON.stringify(url)}) takes reconnect: false or { attempts?, delay? } with a whole number of attempts (0 or more, or Infinity) and delay(attempt) a function, but received ${describe(option)} (attempts: ${describe(attempts)}, delay: ${describe(delay)}).`,
        'Write e.g. fromWebSocket(url, undefined, { reconnect: { attempts: 10, delay: attempt => 1_000 * attempt } }), or leave reconnect out for the default.',
      ],
    );
  }
  return { attempts, delay };
}

/** A browser source's failure, with its URL as the production detail. */
function streamError(code: ErrorCode, url: string, what: DevText): LensCacheError {
  const next =
    code === 'STREAM_DROPPED'
      ? 'Nothing to do unless it keeps happening: then check the server and the network.'
      : 'Check the server and the network, then connect the stream again.';
  return new LensCacheError(
    code,
    errorMessage(
      code,
      process.env.NODE_ENV !== 'production' &&
        what !== false && [
          code === 'STREAM_DROPPED' ? `${what}.` : `${what}; no more messages will arrive from it.`,
          next,
        ],
      url,
    ),
  );
}

/**
 * Streams into the cache (docs/live-data.md#streams): messages pushed by a server (server-sent
 * events, a WebSocket) written as they arrive, each as one ordinary write (`set` by a schema, or
 * `setResponse` for an endpoint), so they merge, order and re-render like any other write.
 */

import { warnOnce } from '../base/env.js';
import { describe, ErrorCode, errorMessage, LensCacheError, setupError } from '../base/errors.js';
import type { Controller } from './Controller.js';
import type { EndpointLike } from './endpoint.js';

/**
 * Opens a source of messages: call `emit` for each message and `fail` for an error, and return a
 * function that closes the source. `fromEventSource` and `fromWebSocket` make the usual ones.
 */
export type StreamSource = (emit: (message: unknown) => void, fail: (error: unknown) => void) => () => void;

export interface StreamOptions {
  /** Where messages come from. */
  open: StreamSource;
  /** Each message is written with `set(schema, ...args, value)` (an entity, a list, a Values map...). */
  schema?: unknown;
  /** Or as the stored response of `endpoint` for args (`setResponse`). Give `schema` or `endpoint`. */
  endpoint?: EndpointLike;
  /** The args of the write (a lens for Scalar fields, the endpoint's params). */
  args?: readonly unknown[];
  /** Turns a message into the value to write; `undefined` skips it. Default: strings are parsed as JSON. */
  parse?: (message: unknown) => unknown;
  /** Told about a message that could not be parsed or written (the store is left as it was) and about source errors. Default: a development warning. */
  onError?: (error: unknown) => void;
}

/**
 * Writes every message of `options.open` through `controller` until the returned `close()` is
 * called; messages after that are ignored. A message that fails to parse or normalize is reported
 * to `onError` and writes nothing; the stream goes on.
 *
 * @example
 * ```ts
 * const close = connectStream(cache.controller(store), {
 *   schema: Ticker,
 *   open: fromEventSource('/api/stream/tickers'),
 * });
 * ```
 */
export function connectStream(controller: Controller, options: StreamOptions): () => void {
  const { open, schema, endpoint, args = [], parse = parseJson } = options ?? ({} as StreamOptions);
  if (typeof open !== 'function' || (schema === undefined) === (endpoint === undefined)) {
    throw setupError(
      ErrorCode.INVALID_SCHEMA,
      process.env.NODE_ENV !== 'production' && [
        `connectStream needs an open(emit, fail) function and exactly one of schema or endpoint, but received ${describe(options)}.`,
        "Pass e.g. { schema: Ticker, open: fromEventSource('/api/stream/tickers') }.",
      ],
    );
  }
  const report =
    options.onError ??
    ((error: unknown) => {
      if (process.env.NODE_ENV !== 'production') warnOnce(`A stream message was not written: ${String(error)}`);
    });
  let closed = false;
  const emit = (message: unknown): void => {
    if (closed) return;
    try {
      const value = parse(message);
      if (value === undefined) return;
      if (endpoint) controller.setResponse(endpoint, ...args, value);
      else controller.set(schema, ...args, value);
    } catch (error) {
      report(error);
    }
  };
  const fail = (error: unknown): void => {
    if (!closed) report(error);
  };
  const close = open(emit, fail);
  return () => {
    if (closed) return;
    closed = true;
    close();
  };
}

function parseJson(message: unknown): unknown {
  return typeof message === 'string' ? JSON.parse(message) : message;
}

/** A source of the `data` of each message of an `EventSource` (server-sent events) at `url`. */
export function fromEventSource(url: string, init?: EventSourceInit): StreamSource {
  return (emit, fail) => {
    const source = new EventSource(url, init);
    source.onmessage = event => emit(event.data);
    // EventSource reconnects by itself; an error with the source closed is final.
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED)
        fail(streamFailed(url, process.env.NODE_ENV !== 'production' && `The event stream ${url} closed for good`));
    };
    return () => source.close();
  };
}

/** A source of the messages of a WebSocket at `url`. */
export function fromWebSocket(url: string, protocols?: string | string[]): StreamSource {
  return (emit, fail) => {
    const socket = new WebSocket(url, protocols);
    socket.onmessage = event => emit(event.data);
    socket.onerror = () =>
      fail(streamFailed(url, process.env.NODE_ENV !== 'production' && `The WebSocket ${url} failed`));
    return () => socket.close();
  };
}

/** A browser source reported a failure it does not recover from by itself. */
function streamFailed(url: string, what: string | false): LensCacheError {
  const code = ErrorCode.STREAM_FAILED;
  return new LensCacheError(
    code,
    errorMessage(
      code,
      process.env.NODE_ENV !== 'production' &&
        what !== false && [
          `${what}; no more messages will arrive from it.`,
          'Check the server and the network, then connect the stream again.',
        ],
      url,
    ),
  );
}

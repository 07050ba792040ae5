/**
 * Streams into the cache (docs/live-data.md#streams): messages pushed by a server (server-sent
 * events, a WebSocket) written as ordinary writes (`set` by a schema, or a response of an
 * endpoint), each as of its arrival, so they merge, order and re-render like any other write; the
 * messages of one task together, when it ends.
 */

import { warnOnce } from '../../../base/env.js';
import { describe, inputError, setupError } from '../../../base/errors.js';
import { Collection } from '../../../schema/Collection.js';
import { Union } from '../../../schema/Union.js';
import { isEntityClass } from '../../../schema/Entity.js';
import { isObject } from '../../../base/dict.js';
import type { Controller } from '../../runtime/Controller.js';
import { setAsOf, stampOf } from '../../runtime/setAt.js';
import type { EndpointLike } from '../../endpoint.js';

/** How a source ended by itself: a WebSocket's close code and reason, when it has them. */
export interface StreamEnd {
  code?: number;
  reason?: string;
}

/**
 * Opens a source of messages: call `emit` for each message, `fail` for an error, and `end` when
 * the source has ended by itself (the server closed it cleanly: nothing more will come), and
 * return a function that closes the source. `fromEventSource` and `fromWebSocket` make the usual ones.
 */
export type StreamSource = (
  emit: (message: unknown) => void,
  fail: (error: unknown) => void,
  end: (how?: StreamEnd) => void,
) => () => void;

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
  /** Told once when the source ends by itself (a clean close by the server); not called after `close()`. Default: a development warning. */
  onClose?: (how: StreamEnd) => void;
}

/**
 * Writes every message of `options.open` through `controller` until the returned `close()` is
 * called or the source ends; messages after that are ignored. A message that fails to parse or
 * normalize, or names a type its Union does not know, is reported to `onError` and writes
 * nothing; the stream goes on. A source that ends by itself is reported to `onClose`.
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
      'INVALID_SCHEMA',
      process.env.NODE_ENV !== 'production' && [
        `connectStream needs an open(emit, fail, end) function and exactly one of schema or endpoint, but received ${describe(options)}.`,
        "Pass e.g. { schema: Ticker, open: fromEventSource('/api/stream/tickers') }.",
      ],
    );
  }
  const report =
    options.onError ??
    ((error: unknown) => {
      if (process.env.NODE_ENV !== 'production') warnOnce(`A stream reported an error: ${String(error)}`);
    });
  const reportEnd =
    options.onClose ??
    ((how: StreamEnd) => {
      if (process.env.NODE_ENV !== 'production')
        warnOnce(
          `A stream's source closed (${describe(how.code)}${how.reason ? `, ${JSON.stringify(how.reason)}` : ''}): no more messages will arrive. Pass onClose to connect again or say so.`,
        );
    });
  /** No more messages are written: closed by the caller, or ended by the source. */
  let over = false;
  let closed = false;
  // Messages of one task are written together when the task ends, each as of its arrival
  // (docs/live-data.md, "Bursts").
  let burst: unknown[] = [];
  let stamps: number[] = [];
  const write = (value: unknown, stamp: number): void => {
    try {
      if (endpoint) controller.resolve(endpoint, { args, response: value, fetchedAt: stamp });
      else setAsOf(controller, stamp, schema, args, value);
    } catch (error) {
      report(error);
    }
  };
  const flush = (): void => {
    const values = burst;
    const at = stamps;
    burst = [];
    stamps = [];
    const list = values.length > 1 && listOf(schema, values);
    if (list) {
      try {
        // One write as of the first message, so each table is copied once for the burst.
        setAsOf(controller, at[0]!, list, args, values.flat());
        return;
      } catch {
        // A message the list refuses: each is written alone, so the others still land.
      }
    }
    values.forEach((value, i) => write(value, at[i]!));
  };
  const emit = (message: unknown): void => {
    if (over) return;
    try {
      const value = parse(message);
      if (value === undefined) return;
      if (!endpoint) checkTypes(schema, value);
      stamps.push(stampOf(controller));
      if (burst.push(value) === 1) void Promise.resolve().then(flush);
    } catch (error) {
      report(error);
    }
  };
  const fail = (error: unknown): void => {
    if (!over) report(error);
  };
  const end = (how: StreamEnd = {}): void => {
    if (over) return;
    over = true;
    reportEnd(how);
  };
  const close = open(emit, fail, end);
  return () => {
    if (closed) return;
    closed = over = true;
    // What arrived before close() is still written.
    flush();
    close();
  };
}

/**
 * The list schema that writes a burst of messages as one value, when each message is an entity
 * (or a Union's item) or, for a list schema `[X]`, a list: every other schema (a Collection, an
 * object, Values) writes each message on its own.
 */
function listOf(schema: unknown, values: readonly unknown[]): readonly unknown[] | undefined {
  const list = Array.isArray(schema) && schema.length === 1;
  if (!list && !isEntityClass(schema) && !(schema instanceof Union)) return undefined;
  return values.every(value => (list ? Array.isArray(value) : isObject(value) && !Array.isArray(value)))
    ? list
      ? schema
      : [schema]
    : undefined;
}

function parseJson(message: unknown): unknown {
  return typeof message === 'string' ? JSON.parse(message) : message;
}

/**
 * Throws UNEXPECTED_INPUT when the message is an item of a Union (or a list of such items: `[union]`,
 * a Collection of one) whose type attribute names no member. Such an item is kept raw where a
 * response holds it, but a `set` by the schema stores entities only, so it would be dropped.
 */
function checkTypes(schema: unknown, value: unknown): void {
  const list = schema instanceof Collection ? schema.schema : schema;
  const union = Array.isArray(list) && list.length === 1 ? list[0] : list;
  if (!(union instanceof Union)) return;
  const items = union === list ? [value] : Array.isArray(value) ? value : [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const type = union.poly.attributeOf(item, undefined, undefined);
    if (union.poly.memberSchema(type) !== undefined) continue;
    throw inputError(
      'UNEXPECTED_INPUT',
      process.env.NODE_ENV !== 'production' && [
        `A stream message has an item of type ${describe(type)}, which its Union does not know (known: ${Object.keys(union.schema).join(', ')}); the message was not written.`,
        "Add the type to the Union, or skip such messages in the stream's parse (return undefined).",
      ],
    );
  }
}

/**
 * connectStream (docs/live-data.md#streams): each message of a source is one ordinary write, a
 * bad message is reported and writes nothing, and nothing is written after close. The browser
 * sources (EventSource, WebSocket) run for real in the example app's end-to-end test; here they
 * are driven by minimal stand-ins of those classes.
 */
import {
  Collection,
  connectStream,
  Entity,
  ErrorCode,
  fromEventSource,
  fromWebSocket,
  Union,
  type StreamEnd,
  type StreamSource,
} from '../../src/index';
import { Ticker } from '../fixtures/readSchemas';
import { makeStore, snapshot } from '../fixtures/store';

const getTicker = { key: (params: { id: string }) => `GET /tickers/${params.id}`, schema: Ticker };

/** A source the test pushes messages into by hand. */
interface ManualSource {
  emit: ((message: unknown) => void) | undefined;
  fail: ((error: unknown) => void) | undefined;
  end: ((how?: StreamEnd) => void) | undefined;
  closed: number;
  open: StreamSource;
}

function manualSource(): ManualSource {
  const source: ManualSource = {
    emit: undefined,
    fail: undefined,
    end: undefined,
    closed: 0,
    open: (emit, fail, end) => {
      source.emit = emit;
      source.fail = fail;
      source.end = end;
      return () => source.closed++;
    },
  };
  return source;
}

test('each message is written by the schema, as it arrives; close stops the writes and closes the source once', () => {
  const { cache, store } = makeStore();
  const source = manualSource();
  const close = connectStream(cache.controller(store), { schema: Ticker, open: source.open });
  source.emit!('{"product_id":"BTC","price":1}');
  expect(cache.selectQuery(store.getState(), Ticker, 'BTC')).toEqual(
    expect.objectContaining({ product_id: 'BTC', price: 1 }),
  );
  const first = cache.selectQuery(store.getState(), Ticker, 'BTC');
  source.emit!({ product_id: 'BTC', price: 1 }); // an object is written as it is; identical: no change
  expect(cache.selectQuery(store.getState(), Ticker, 'BTC')).toBe(first);
  source.emit!({ product_id: 'BTC', price: 2 });
  expect(cache.selectQuery(store.getState(), Ticker, 'BTC')?.price).toBe(2);
  close();
  close();
  expect(source.closed).toBe(1);
  source.emit!({ product_id: 'BTC', price: 3 });
  expect(cache.selectQuery(store.getState(), Ticker, 'BTC')?.price).toBe(2);
});

test('a message that does not parse or normalize is reported, writes nothing, and the stream goes on', () => {
  const { cache, store } = makeStore();
  const source = manualSource();
  const errors: unknown[] = [];
  connectStream(cache.controller(store), { schema: Ticker, open: source.open, onError: error => errors.push(error) });
  source.emit!({ product_id: 'ETH', price: 10 });
  const before = snapshot(store.getState());
  source.emit!('{not json');
  source.emit!({ price: 11 });
  expect(errors).toEqual([expect.any(SyntaxError), expect.objectContaining({ code: ErrorCode.MISSING_PK })]);
  expect(snapshot(store.getState())).toEqual(before);
  source.fail!(new Error('gone'));
  expect(errors[2]).toEqual(new Error('gone'));
  source.emit!({ product_id: 'ETH', price: 12 });
  expect(cache.selectQuery(store.getState(), Ticker, 'ETH')?.price).toBe(12);
});

test('a source that ends by itself is reported to onClose once; later messages and errors are ignored', () => {
  const { cache, store } = makeStore();
  const source = manualSource();
  const ends: StreamEnd[] = [];
  const errors: unknown[] = [];
  const close = connectStream(cache.controller(store), {
    schema: Ticker,
    open: source.open,
    onClose: how => ends.push(how),
    onError: error => errors.push(error),
  });
  source.emit!({ product_id: 'BTC', price: 1 });
  source.end!({ code: 1000, reason: 'bye' });
  source.end!();
  expect(ends).toEqual([{ code: 1000, reason: 'bye' }]);
  source.emit!({ product_id: 'BTC', price: 2 });
  source.fail!(new Error('late'));
  expect(cache.selectQuery(store.getState(), Ticker, 'BTC')?.price).toBe(1);
  expect(errors).toEqual([]);
  // close() still closes the source (once), and reports nothing.
  close();
  close();
  expect(source.closed).toBe(1);
  expect(ends).toHaveLength(1);
});

describe('a message of a type its Union does not know', () => {
  class Buy extends Entity {
    id = '';
    kind = 'buy';
    static override key = 'Buy';
  }
  class Sell extends Entity {
    id = '';
    kind = 'sell';
    static override key = 'Sell';
  }
  const Trade = new Union({ buy: Buy, sell: Sell }, 'kind');

  test.each([
    ['a Union', Trade, { id: '1', kind: 'swap' }],
    [
      'a list of a Union',
      [Trade],
      [
        { id: '2', kind: 'buy' },
        { id: '1', kind: 'swap' },
      ],
    ],
    [
      'a Collection of a Union',
      new Collection([Trade]),
      [
        { id: '2', kind: 'buy' },
        { id: '1', kind: 'swap' },
      ],
    ],
  ])('is reported with UNEXPECTED_INPUT and writes nothing (%s)', (_, schema, message) => {
    const { cache, store } = makeStore();
    const source = manualSource();
    const errors: unknown[] = [];
    connectStream(cache.controller(store), { schema, open: source.open, onError: error => errors.push(error) });
    const before = snapshot(store.getState());
    source.emit!(message);
    expect(errors).toEqual([
      expect.objectContaining({ code: ErrorCode.UNEXPECTED_INPUT, message: expect.stringContaining('"swap"') }),
    ]);
    expect(snapshot(store.getState())).toEqual(before);
    // Known types go on being written.
    source.emit!(Array.isArray(message) ? [{ id: '3', kind: 'sell' }] : { id: '3', kind: 'sell' });
    expect(cache.selectQuery(store.getState(), Sell, '3')).toEqual(expect.objectContaining({ id: '3' }));
    expect(errors).toHaveLength(1);
  });
});

test('with an endpoint, each message is its stored response; parse can pick or skip messages', () => {
  const { cache, store } = makeStore();
  const source = manualSource();
  connectStream(cache.controller(store), {
    endpoint: getTicker,
    args: [{ id: 'BTC' }],
    open: source.open,
    parse: message => ((message as { type: string }).type === 'tick' ? (message as { body: unknown }).body : undefined),
  });
  source.emit!({ type: 'heartbeat' });
  expect(cache.selectResponse(store.getState(), getTicker, { id: 'BTC' }).data).toBeUndefined();
  source.emit!({ type: 'tick', body: { product_id: 'BTC', price: 5 } });
  const response = cache.selectResponse(store.getState(), getTicker, { id: 'BTC' });
  expect(response.data).toEqual(expect.objectContaining({ price: 5 }));
  expect(response.expiryStatus).toBe('valid');
});

test('options without a source, or with both or neither of schema and endpoint, are refused', () => {
  const { cache, store } = makeStore();
  const controller = cache.controller(store);
  const open: StreamSource = () => () => undefined;
  for (const bad of [undefined, {}, { schema: Ticker }, { open }, { open, schema: Ticker, endpoint: getTicker }]) {
    expect(() => connectStream(controller, bad as never)).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }),
    );
  }
});

describe('browser sources', () => {
  const globals = globalThis as Record<string, unknown>;
  afterEach(() => {
    delete globals.EventSource;
    delete globals.WebSocket;
  });

  test('fromEventSource emits each event’s data, reports a closed stream, and closes it', () => {
    const made: any[] = [];
    globals.EventSource = class {
      static CLOSED = 2;
      readyState = 1;
      onmessage: ((event: { data: string }) => void) | null = null;
      onerror: (() => void) | null = null;
      closed = false;
      constructor(readonly url: string) {
        made.push(this);
      }
      close() {
        this.closed = true;
      }
    };
    const { cache, store } = makeStore();
    const errors: unknown[] = [];
    const close = connectStream(cache.controller(store), {
      schema: Ticker,
      open: fromEventSource('/stream'),
      onError: error => errors.push(error),
    });
    expect(made[0].url).toBe('/stream');
    made[0].onmessage({ data: '{"product_id":"BTC","price":7}' });
    expect(cache.selectQuery(store.getState(), Ticker, 'BTC')?.price).toBe(7);
    made[0].onerror(); // reconnecting: not reported
    expect(errors).toEqual([]);
    made[0].readyState = 2;
    made[0].onerror();
    expect(errors).toEqual([expect.objectContaining({ message: expect.stringContaining('/stream') })]);
    close();
    expect(made[0].closed).toBe(true);
  });

  test('fromWebSocket emits each message’s data and closes the socket', () => {
    const made: any[] = [];
    globals.WebSocket = class {
      onmessage: ((event: { data: string }) => void) | null = null;
      onerror: (() => void) | null = null;
      closed = false;
      constructor(readonly url: string) {
        made.push(this);
      }
      close() {
        this.closed = true;
      }
    };
    const { cache, store } = makeStore();
    const close = connectStream(cache.controller(store), { schema: Ticker, open: fromWebSocket('ws://x/feed') });
    made[0].onmessage({ data: '{"product_id":"ETH","price":8}' });
    expect(cache.selectQuery(store.getState(), Ticker, 'ETH')?.price).toBe(8);
    close();
    expect(made[0].closed).toBe(true);
  });
});

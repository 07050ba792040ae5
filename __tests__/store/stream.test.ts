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
import { makeRecordingStore } from '../fixtures/recording';
import { makeStore, snapshot } from '../fixtures/store';

/** Lets what the sources emitted be written: a stream writes a task's messages as it ends. */
const written = () => Promise.resolve();

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

test('each message is written by the schema, as it arrives; close stops the writes and closes the source once', async () => {
  const { cache, store } = makeStore();
  const source = manualSource();
  const close = connectStream(cache.controller(store), { schema: Ticker, open: source.open });
  source.emit!('{"product_id":"BTC","price":1}');
  await written();
  expect(cache.selectQuery(store.getState(), Ticker, 'BTC')).toEqual(
    expect.objectContaining({ product_id: 'BTC', price: 1 }),
  );
  const first = cache.selectQuery(store.getState(), Ticker, 'BTC');
  source.emit!({ product_id: 'BTC', price: 1 }); // an object is written as it is; identical: no change
  await written();
  expect(cache.selectQuery(store.getState(), Ticker, 'BTC')).toBe(first);
  source.emit!({ product_id: 'BTC', price: 2 });
  await written();
  expect(cache.selectQuery(store.getState(), Ticker, 'BTC')?.price).toBe(2);
  close();
  close();
  expect(source.closed).toBe(1);
  source.emit!({ product_id: 'BTC', price: 3 });
  await written();
  expect(cache.selectQuery(store.getState(), Ticker, 'BTC')?.price).toBe(2);
});

test('a message that does not parse or normalize is reported, writes nothing, and the stream goes on', async () => {
  const { cache, store } = makeStore();
  const source = manualSource();
  const errors: unknown[] = [];
  connectStream(cache.controller(store), { schema: Ticker, open: source.open, onError: error => errors.push(error) });
  source.emit!({ product_id: 'ETH', price: 10 });
  await written();
  const before = snapshot(store.getState());
  source.emit!('{not json');
  await written();
  source.emit!({ price: 11 });
  await written();
  expect(errors).toEqual([expect.any(SyntaxError), expect.objectContaining({ code: ErrorCode.MISSING_PK })]);
  expect(snapshot(store.getState())).toEqual(before);
  source.fail!(new Error('gone'));
  expect(errors[2]).toEqual(new Error('gone'));
  source.emit!({ product_id: 'ETH', price: 12 });
  await written();
  expect(cache.selectQuery(store.getState(), Ticker, 'ETH')?.price).toBe(12);
});

test('a source that ends by itself is reported to onClose once; later messages and errors are ignored', async () => {
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
  await written();
  source.end!({ code: 1000, reason: 'bye' });
  source.end!();
  expect(ends).toEqual([{ code: 1000, reason: 'bye' }]);
  source.emit!({ product_id: 'BTC', price: 2 });
  await written();
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
  ])('is reported with UNEXPECTED_INPUT and writes nothing (%s)', async (_, schema, message) => {
    const { cache, store } = makeStore();
    const source = manualSource();
    const errors: unknown[] = [];
    connectStream(cache.controller(store), { schema, open: source.open, onError: error => errors.push(error) });
    const before = snapshot(store.getState());
    source.emit!(message);
    await written();
    expect(errors).toEqual([
      expect.objectContaining({ code: ErrorCode.UNEXPECTED_INPUT, message: expect.stringContaining('"swap"') }),
    ]);
    expect(snapshot(store.getState())).toEqual(before);
    // Known types go on being written.
    source.emit!(Array.isArray(message) ? [{ id: '3', kind: 'sell' }] : { id: '3', kind: 'sell' });
    await written();
    expect(cache.selectQuery(store.getState(), Sell, '3')).toEqual(expect.objectContaining({ id: '3' }));
    expect(errors).toHaveLength(1);
  });
});

test('with an endpoint, each message is its stored response; parse can pick or skip messages', async () => {
  const { cache, store } = makeStore();
  const source = manualSource();
  connectStream(cache.controller(store), {
    endpoint: getTicker,
    args: [{ id: 'BTC' }],
    open: source.open,
    parse: message => ((message as { type: string }).type === 'tick' ? (message as { body: unknown }).body : undefined),
  });
  source.emit!({ type: 'heartbeat' });
  await written();
  expect(cache.selectResponse(store.getState(), getTicker, { id: 'BTC' }).data).toBeUndefined();
  source.emit!({ type: 'tick', body: { product_id: 'BTC', price: 5 } });
  await written();
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

  test('fromEventSource emits each event’s data, reports a closed stream, and closes it', async () => {
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
    await written();
    expect(cache.selectQuery(store.getState(), Ticker, 'BTC')?.price).toBe(7);
    made[0].onerror(); // reconnecting: not reported
    expect(errors).toEqual([]);
    made[0].readyState = 2;
    made[0].onerror();
    expect(errors).toEqual([expect.objectContaining({ message: expect.stringContaining('/stream') })]);
    close();
    expect(made[0].closed).toBe(true);
  });

  test('fromWebSocket emits each message’s data and closes the socket', async () => {
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
    await written();
    expect(cache.selectQuery(store.getState(), Ticker, 'ETH')?.price).toBe(8);
    close();
    expect(made[0].closed).toBe(true);
  });
});

describe('bursts: the messages of one task are written together as it ends', () => {
  const ticks = (from: number, count: number, price = 1) =>
    Array.from({ length: count }, (_, i) => ({ product_id: `T${from + i}`, price: price + i }));

  test('twenty entity messages in one task are one action; a later message of the same row wins', async () => {
    const { cache, store, actions } = makeRecordingStore();
    const source = manualSource();
    connectStream(cache.controller(store), { schema: Ticker, open: source.open });
    const before = actions.length;
    for (const tick of ticks(0, 20)) source.emit!(tick);
    source.emit!({ product_id: 'T3', price: 99 });
    // Nothing is written before the task ends.
    expect(actions.length).toBe(before);
    await written();
    expect(actions.length).toBe(before + 1);
    expect(cache.selectQuery(store.getState(), Ticker, 'T19')?.price).toBe(20);
    expect(cache.selectQuery(store.getState(), Ticker, 'T3')?.price).toBe(99);
    // The next task's messages are a write of their own.
    source.emit!({ product_id: 'T0', price: 5 });
    await written();
    expect(actions.length).toBe(before + 2);
  });

  test('a list schema joins its messages; a message the joined write refuses leaves the others written, and is reported alone', async () => {
    const { cache, store, actions } = makeRecordingStore();
    const source = manualSource();
    const errors: unknown[] = [];
    connectStream(cache.controller(store), {
      schema: [Ticker],
      open: source.open,
      onError: error => errors.push(error),
    });
    source.emit!(ticks(0, 3));
    source.emit!(ticks(3, 3));
    const before = actions.length;
    await written();
    expect(actions.length).toBe(before + 1);
    expect(cache.selectQuery(store.getState(), Ticker, 'T5')?.price).toBe(3);
    source.emit!(ticks(10, 2));
    source.emit!([{ price: 1 }]); // no pk
    source.emit!(ticks(20, 2));
    await written();
    expect(errors).toEqual([expect.objectContaining({ code: ErrorCode.MISSING_PK })]);
    expect(cache.selectQuery(store.getState(), Ticker, 'T11')?.price).toBe(2);
    expect(cache.selectQuery(store.getState(), Ticker, 'T21')?.price).toBe(2);
  });

  test('a Collection writes each message of a burst on its own, in order; close() writes what arrived before it', async () => {
    const { cache, store } = makeStore();
    const source = manualSource();
    const list = new Collection([Ticker]);
    const close = connectStream(cache.controller(store), { schema: list, open: source.open });
    source.emit!(ticks(0, 2));
    source.emit!(ticks(5, 1));
    await written();
    // Each message replaced the list: the last one is the list.
    expect(cache.selectQuery(store.getState(), list)?.map(ticker => ticker.product_id)).toEqual(['T5']);
    source.emit!(ticks(7, 1));
    close();
    expect(cache.selectQuery(store.getState(), list)?.map(ticker => ticker.product_id)).toEqual(['T7']);
    source.emit!(ticks(9, 1));
    await written();
    expect(cache.selectQuery(store.getState(), list)?.map(ticker => ticker.product_id)).toEqual(['T7']);
  });
});

test('hostile frames (a __proto__ key, a cycle, a number JSON cannot hold, wrong shapes) are reported, the store unchanged, no prototype written', async () => {
  const { cache, store } = makeStore();
  const source = manualSource();
  const errors: unknown[] = [];
  connectStream(cache.controller(store), { schema: Ticker, open: source.open, onError: error => errors.push(error) });
  source.emit!({ product_id: 'OK', price: 1 });
  await written();
  const before = store.getState();
  const cyclic: Record<string, unknown> = { product_id: 'C', price: 1 };
  cyclic.self = cyclic;
  const hostile: unknown[] = [
    cyclic,
    '{"product_id":"H","price":1e400}', // Infinity once parsed
    { product_id: 'B', price: 10n },
    '"just a string"',
    '[1, 2]',
    42,
  ];
  for (const frame of hostile) {
    source.emit!(frame);
    await written();
  }
  expect(errors).toHaveLength(hostile.length);
  for (const error of errors) expect(error).toEqual(expect.objectContaining({ code: expect.any(String) }));
  expect(store.getState()).toBe(before);
  // A __proto__ member is a field like any other: it writes no prototype.
  source.emit!('{"product_id":"P","price":2,"__proto__":{"polluted":true}}');
  await written();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getPrototypeOf(cache.selectQuery(store.getState(), Ticker, 'P'))).toBe(Ticker.prototype);
  expect(cache.selectQuery(store.getState(), Ticker, 'P')?.price).toBe(2);
});

describe('a burst is as old as its messages', () => {
  test('a write made in the same task after a message keeps its rows; one made before it does not', async () => {
    const { cache, store } = makeStore();
    const source = manualSource();
    connectStream(cache.controller(store), { schema: Ticker, open: source.open });
    store.dispatch(cache.set(Ticker, { product_id: 'A', price: 0 }));
    source.emit!({ product_id: 'A', price: 1 }); // arrived after the set: wins
    source.emit!({ product_id: 'B', price: 1 });
    store.dispatch(cache.set(Ticker, { product_id: 'B', price: 2 })); // made after the message: wins
    await written();
    expect(cache.selectQuery(store.getState(), Ticker, 'A')?.price).toBe(1);
    expect(cache.selectQuery(store.getState(), Ticker, 'B')?.price).toBe(2);
  });

  test('with an endpoint too: a message answered before a newer write of its rows leaves them', async () => {
    const { cache, store } = makeStore();
    const source = manualSource();
    connectStream(cache.controller(store), { endpoint: getTicker, args: [{ id: 'C' }], open: source.open });
    source.emit!({ product_id: 'C', price: 1 });
    store.dispatch(cache.set(Ticker, { product_id: 'C', price: 2 }));
    await written();
    expect(cache.selectQuery(store.getState(), Ticker, 'C')?.price).toBe(2);
  });

  test('messages that arrived before a reset in the same task are not written after it', async () => {
    const { cache, store } = makeStore();
    const source = manualSource();
    connectStream(cache.controller(store), { schema: Ticker, open: source.open });
    source.emit!({ product_id: 'D', price: 1 });
    source.emit!({ product_id: 'E', price: 1 });
    store.dispatch(cache.resetEntireStore());
    const reset = store.getState();
    await written();
    expect(store.getState()).toBe(reset);
    expect(cache.selectQuery(store.getState(), Ticker, 'D')).toBeUndefined();
    // What arrives after the reset is written.
    source.emit!({ product_id: 'D', price: 2 });
    await written();
    expect(cache.selectQuery(store.getState(), Ticker, 'D')?.price).toBe(2);
  });
});

/**
 * fromWebSocket (docs/live-data.md#streams), driven by a stand-in WebSocket class on a fake clock:
 * a clean close by the server ends the stream and is reported to onClose; a dropped connection is
 * reported to onError and reconnected with backoff until the attempts run out; close() stops all.
 */
import { connectStream, ErrorCode, fromWebSocket, type StreamEnd } from '../../src/index';
import { Ticker } from '../fixtures/readSchemas';
import { makeStore } from '../fixtures/store';

/** Lets what the sources emitted be written: a stream writes a task's messages as it ends. */
const written = () => Promise.resolve();

/** What the browser's WebSocket does, as far as fromWebSocket uses it; the test plays the server. */
class FakeSocket {
  static made: FakeSocket[] = [];
  onopen: ((event: object) => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; reason: string; wasClean: boolean }) => void) | null = null;
  closed = 0;
  constructor(
    readonly url: string,
    readonly protocols?: string | string[],
  ) {
    FakeSocket.made.push(this);
  }
  close() {
    this.closed++;
  }
  opened() {
    this.onopen?.({});
  }
  tick(product_id: string, price: number) {
    this.onmessage?.({ data: JSON.stringify({ product_id, price }) });
  }
  dropped(code = 1006) {
    this.onclose?.({ code, reason: '', wasClean: false });
  }
  ended(code = 1000, reason = 'done') {
    this.onclose?.({ code, reason, wasClean: true });
  }
}

const globals = globalThis as Record<string, unknown>;
beforeEach(() => {
  FakeSocket.made = [];
  globals.WebSocket = FakeSocket;
  jest.useFakeTimers();
});
afterEach(() => {
  delete globals.WebSocket;
  jest.useRealTimers();
});

function connect(source = fromWebSocket('ws://x/feed', 'v1')) {
  const { cache, store } = makeStore();
  const errors: Array<{ code?: string }> = [];
  const ends: StreamEnd[] = [];
  const close = connectStream(cache.controller(store), {
    schema: Ticker,
    open: source,
    onError: error => errors.push(error as { code?: string }),
    onClose: how => ends.push(how),
  });
  const price = (id: string) => cache.selectQuery(store.getState(), Ticker, id)?.price;
  return { close, errors, ends, price, socket: (i: number) => FakeSocket.made[i]! };
}

test('a clean close by the server ends the stream: reported to onClose once, no reconnect, later messages ignored', async () => {
  const { close, errors, ends, price, socket } = connect();
  expect(socket(0).url).toBe('ws://x/feed');
  expect(socket(0).protocols).toBe('v1');
  socket(0).opened();
  socket(0).tick('BTC', 1);
  await written();
  expect(price('BTC')).toBe(1);
  socket(0).ended(1000, 'market closed');
  expect(ends).toEqual([{ code: 1000, reason: 'market closed' }]);
  expect(errors).toEqual([]);
  jest.advanceTimersByTime(10 * 60_000);
  expect(FakeSocket.made).toHaveLength(1);
  socket(0).tick('BTC', 2);
  await written();
  expect(price('BTC')).toBe(1);
  close();
  close();
  expect(socket(0).closed).toBe(1);
});

test('a dropped connection is reported and reconnected after 1 s, 2 s, 4 s…; an open connection resets the backoff', async () => {
  const { errors, ends, price, socket } = connect();
  socket(0).opened();
  socket(0).dropped();
  expect(errors).toEqual([expect.objectContaining({ code: ErrorCode.STREAM_DROPPED })]);
  jest.advanceTimersByTime(999);
  expect(FakeSocket.made).toHaveLength(1);
  jest.advanceTimersByTime(1);
  expect(FakeSocket.made).toHaveLength(2);
  socket(1).dropped(); // the reconnect failed before opening: the next wait doubles
  jest.advanceTimersByTime(1_999);
  expect(FakeSocket.made).toHaveLength(2);
  jest.advanceTimersByTime(1);
  expect(FakeSocket.made).toHaveLength(3);
  socket(2).opened();
  socket(2).tick('ETH', 5);
  await written();
  expect(price('ETH')).toBe(5);
  socket(2).dropped();
  jest.advanceTimersByTime(1_000);
  expect(FakeSocket.made).toHaveLength(4);
  // The sockets that were replaced are not listened to any more.
  socket(0).tick('ETH', 6);
  await written();
  expect(price('ETH')).toBe(5);
  expect(ends).toEqual([]);
  expect(errors).toHaveLength(3);
});

test('a server going away or restarting (clean 1001, 1012, 1013) is reconnected', () => {
  for (const code of [1001, 1012, 1013]) {
    FakeSocket.made = [];
    const { ends, socket } = connect();
    socket(0).opened();
    socket(0).ended(code, 'restart');
    expect(ends).toEqual([]);
    jest.advanceTimersByTime(1_000);
    expect(FakeSocket.made).toHaveLength(2);
  }
});

test('when the reconnects in a row run out, or with reconnect: false, the stream fails with STREAM_FAILED', () => {
  const limited = connect(fromWebSocket('ws://x/feed', undefined, { reconnect: { attempts: 2, delay: () => 10 } }));
  limited.socket(0).dropped();
  jest.advanceTimersByTime(10);
  limited.socket(1).dropped();
  jest.advanceTimersByTime(10);
  limited.socket(2).dropped();
  jest.advanceTimersByTime(60_000);
  expect(FakeSocket.made).toHaveLength(3);
  expect(limited.errors.map(error => error.code)).toEqual([
    ErrorCode.STREAM_DROPPED,
    ErrorCode.STREAM_DROPPED,
    ErrorCode.STREAM_FAILED,
  ]);
  FakeSocket.made = [];
  const never = connect(fromWebSocket('ws://x/feed', undefined, { reconnect: false }));
  never.socket(0).dropped();
  jest.advanceTimersByTime(60_000);
  expect(FakeSocket.made).toHaveLength(1);
  expect(never.errors.map(error => error.code)).toEqual([ErrorCode.STREAM_FAILED]);
});

test('close() during the wait cancels the reconnect; a close event after close() is not reported', () => {
  const { close, errors, ends, socket } = connect();
  socket(0).dropped();
  close();
  jest.advanceTimersByTime(60_000);
  expect(FakeSocket.made).toHaveLength(1);
  expect(jest.getTimerCount()).toBe(0);
  socket(0).ended();
  expect(ends).toEqual([]);
  expect(errors).toHaveLength(1);
});

test('bad reconnect options are refused at once; a delay that returns no number of ms stops reconnecting, reported', () => {
  for (const reconnect of [true, 3, { attempts: -1 }, { attempts: 1.5 }, { attempts: NaN }, { delay: 1_000 }]) {
    expect(() => fromWebSocket('ws://x/feed', undefined, { reconnect: reconnect as never })).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }),
    );
  }
  const { errors, socket } = connect(fromWebSocket('ws://x/feed', undefined, { reconnect: { delay: () => NaN } }));
  socket(0).dropped();
  jest.advanceTimersByTime(60_000);
  expect(FakeSocket.made).toHaveLength(1);
  expect(errors).toEqual([
    expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA, message: expect.stringContaining('reconnect.delay(1)') }),
  ]);
});

test('without onClose a clean close is a development warning', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    const { cache, store } = makeStore();
    connectStream(cache.controller(store), { schema: Ticker, open: fromWebSocket('ws://x/quiet') });
    FakeSocket.made[0]!.ended(1000, 'bye');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('no more messages will arrive'));
  } finally {
    warn.mockRestore();
  }
});

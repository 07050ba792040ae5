/**
 * crossTab (docs/crossTab.md): stores of one cache path, each with its own cache and channel, stand
 * for tabs, over Node's BroadcastChannel. A confirmed write in one reaches the others under the
 * ordering rules; a guess stays in its tab; a late tab catches up; a hostile message is
 * UNEXPECTED_INPUT told to `onError`, and the store is unchanged.
 */
import { configureStore } from '@reduxjs/toolkit';
import {
  createLeanCache,
  crossTab,
  Entity,
  ErrorCode,
  optimisticUpdates,
  type CacheState,
  type CrossTabOptions,
  type EndpointLike,
} from '../../src/index';

class Note extends Entity {
  id = '';
  title = '';
  static override key = 'Note';
}

/** A request the test answers by hand: `answer(value)` resolves it. */
interface Held {
  args: unknown[];
  answer(value: unknown): void;
}
const held: Held[] = [];
const hold = (...args: unknown[]) => new Promise(resolve => held.push({ args, answer: resolve }));
const getNote: EndpointLike<typeof Note, [string]> = { key: id => `GET /notes/${id}`, schema: Note, fetch: hold };
const editNote: EndpointLike<typeof Note, [string, { title: string }]> = {
  key: (id, body) => `PATCH /notes/${id} ${JSON.stringify(body)}`,
  schema: Note,
  sideEffect: true,
  fetch: hold,
  getOptimisticResponse: (_snap, id, body) => ({ id, ...body }),
};

/**
 * Node's BroadcastChannel, its messages copied into this test's realm: Jest runs the test in a
 * context of its own, and Node's channel builds what it receives with the outer context's
 * `Object`, which the cache's checks would refuse as not plain (a browser's channel builds it in
 * the page's realm). Cycles and `__proto__` keys are kept.
 */
class RealmChannel {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  private readonly inner: BroadcastChannel;
  constructor(name: string) {
    this.inner = new BroadcastChannel(name);
    this.inner.onmessage = event => this.onmessage?.({ data: inRealm((event as MessageEvent).data, new Map()) });
  }
  postMessage(message: unknown) {
    this.inner.postMessage(message);
  }
  close() {
    this.inner.close();
  }
  unref() {
    (this.inner as unknown as { unref(): void }).unref();
  }
}

function inRealm(value: unknown, seen: Map<object, object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const done = seen.get(value);
  if (done) return done;
  const proto = Object.getPrototypeOf(value);
  if (proto !== null && Object.getPrototypeOf(proto) !== null && !Array.isArray(value)) return value;
  const copy: Record<string, unknown> = Array.isArray(value) ? [] : proto === null ? Object.create(null) : {};
  seen.set(value, copy);
  for (const key of Object.keys(value)) {
    const field = inRealm((value as Record<string, unknown>)[key], seen);
    Object.defineProperty(copy, key, { value: field, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

let channel = 0;
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
  held.length = 0;
});

/** A tab: its own cache (same reducerPath) and store, with crossTab on the test's channel. */
function tab(name: string, options: CrossTabOptions = {}) {
  const errors: unknown[] = [];
  const feature = crossTab({
    channel: name,
    BroadcastChannel: RealmChannel,
    onError: error => errors.push(error),
    ...options,
  });
  const cache = createLeanCache({ features: [optimisticUpdates, feature] });
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middleware),
  });
  closers.push(() => feature.close(store));
  const slice = () => store.getState()[cache.reducerPath] as CacheState;
  const title = (id: string) => (cache.selectQuery(store.getState(), Note, id) as Note | undefined)?.title;
  return { cache, store, errors, slice, title, feature };
}

/** Two tabs on a fresh channel. */
function twoTabs() {
  const name = `crossTab-test-${++channel}`;
  return { a: tab(name), b: tab(name), name };
}

/** Waits, turn by turn of the event loop, until `done()` (messages between channels take a few). */
async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 10_000 && !done(); turn++) await new Promise(resolve => setImmediate(resolve));
  expect(done()).toBe(true);
}

/** The request sent last, once it is sent (a request is sent in a microtask). */
async function sent(): Promise<Held> {
  await until(() => held.length > 0);
  return held.pop()!;
}

/** The request sent last answered, and its write landed. */
async function answerLast(value: unknown, settled: Promise<unknown>) {
  (await sent()).answer(value);
  await settled;
}

test("an edit's answer in one tab reaches the other", async () => {
  const { a, b } = twoTabs();
  const edit = a.store.dispatch(a.cache.fetch(editNote, '1', { title: 'edited in A' }));
  await answerLast({ id: '1', title: 'edited in A' }, edit);
  await until(() => b.title('1') === 'edited in A');
  // The row came with its meta: as new in B as in A.
  expect(b.slice().entitiesMeta.Note!['1']).toEqual(a.slice().entitiesMeta.Note!['1']);
  expect(a.errors.concat(b.errors)).toEqual([]);
});

test('a read answer crosses with its response: the other tab reads it valid, without fetching', async () => {
  const { a, b } = twoTabs();
  const read = a.store.dispatch(a.cache.fetch(getNote, '2'));
  await answerLast({ id: '2', title: 'read in A' }, read);
  await until(() => b.title('2') === 'read in A');
  expect(b.cache.selectResponse(b.store.getState(), getNote, '2')).toMatchObject({ expiryStatus: 'valid' });
});

test('a guess stays in its tab; the answer that replaces it crosses', async () => {
  const { a, b } = twoTabs();
  const edit = a.store.dispatch(a.cache.fetch(editNote, '1', { title: 'guess' }));
  expect(a.title('1')).toBe('guess');
  const guessed = await sent();
  // A later answer of A's crosses; had the guess crossed, it would have arrived before it.
  const read = a.store.dispatch(a.cache.fetch(getNote, '9'));
  await answerLast({ id: '9', title: 'marker' }, read);
  await until(() => b.title('9') === 'marker');
  expect(b.title('1')).toBeUndefined();
  expect(JSON.stringify(b.slice())).not.toContain('guess');
  guessed.answer({ id: '1', title: 'confirmed' });
  await edit;
  await until(() => b.title('1') === 'confirmed');
  expect(b.slice().entitiesMeta.Note!['1']!.optimistic).toBeUndefined();
});

test("a tab's stale answer never overwrites another tab's newer write", async () => {
  const { a, b } = twoTabs();
  // A's read starts first; B's edit is answered (and crosses to A) while it is in flight.
  const read = a.store.dispatch(a.cache.fetch(getNote, '1'));
  const staleRead = await sent();
  const edit = b.store.dispatch(b.cache.fetch(editNote, '1', { title: 'newer from B' }));
  await answerLast({ id: '1', title: 'newer from B' }, edit);
  await until(() => a.title('1') === 'newer from B');
  staleRead.answer({ id: '1', title: 'stale from A' });
  await read;
  expect(a.title('1')).toBe('newer from B');
  // What A sends after its answer does not overwrite B either: wait for a later marker of A's.
  const marker = a.store.dispatch(a.cache.fetch(getNote, '9'));
  await answerLast({ id: '9', title: 'marker' }, marker);
  await until(() => b.title('9') === 'marker');
  expect(b.title('1')).toBe('newer from B');
});

test('a failure stays in its tab: the other keeps its valid response', async () => {
  const { a, b } = twoTabs();
  const read = b.store.dispatch(b.cache.fetch(getNote, '1'));
  await answerLast({ id: '1', title: 'valid in B' }, read);
  await until(() => a.title('1') === 'valid in B');
  a.store.dispatch(a.cache.setError(getNote, '1', new Error('offline in A')));
  a.store.dispatch(a.cache.invalidate(getNote, '1'));
  const marker = a.store.dispatch(a.cache.fetch(getNote, '9'));
  await answerLast({ id: '9', title: 'marker' }, marker);
  await until(() => b.title('9') === 'marker');
  expect(b.cache.selectResponse(b.store.getState(), getNote, '1')).toMatchObject({
    expiryStatus: 'valid',
    error: undefined,
  });
});

test('a tab that opens late catches up with what the others confirmed, not their guesses', async () => {
  const { a, name } = twoTabs();
  const read = a.store.dispatch(a.cache.fetch(getNote, '1'));
  await answerLast({ id: '1', title: 'before C opened' }, read);
  const edit = a.store.dispatch(a.cache.fetch(editNote, '2', { title: 'guess' }));
  edit.catch(() => undefined);
  const late = tab(name);
  await until(() => late.title('1') === 'before C opened');
  expect(late.title('2')).toBeUndefined();
  expect(late.cache.selectResponse(late.store.getState(), getNote, '1')).toMatchObject({ expiryStatus: 'valid' });
});

test('tabs with another channel name, or another cache path on the same channel, share nothing', async () => {
  const { a, b, name } = twoTabs();
  const other = tab(`${name}-other`);
  const elsewhere = crossTab({ channel: name, BroadcastChannel: RealmChannel, onError: error => b.errors.push(error) });
  const otherPath = createLeanCache({ reducerPath: 'other', features: [elsewhere] });
  const otherStore = configureStore({
    reducer: { other: otherPath.reducer },
    middleware: getDefault => getDefault().concat(otherPath.middleware),
  });
  closers.push(() => elsewhere.close(otherStore));
  const read = a.store.dispatch(a.cache.fetch(getNote, '1'));
  await answerLast({ id: '1', title: 'A' }, read);
  await until(() => b.title('1') === 'A');
  expect(other.title('1')).toBeUndefined();
  expect(Object.keys((otherStore.getState().other as CacheState).entities)).toEqual([]);
  expect(b.errors).toEqual([]);
});

test('close(store) stops sending and receiving', async () => {
  const { a, b } = twoTabs();
  b.feature.close(b.store);
  const read = a.store.dispatch(a.cache.fetch(getNote, '1'));
  await answerLast({ id: '1', title: 'A' }, read);
  a.feature.close(a.store);
  const again = a.store.dispatch(a.cache.fetch(getNote, '2'));
  await answerLast({ id: '2', title: 'after close' }, again);
  await new Promise(resolve => setImmediate(resolve));
  expect(b.title('1')).toBeUndefined();
  expect(a.errors).toEqual([]);
});

describe('options', () => {
  test.each([
    ['channel', ''],
    ['channel', 5],
    ['BroadcastChannel', 'BroadcastChannel'],
    ['onError', true],
  ])('%s: %p is INVALID_OPTION', (option, value) => {
    expect(() => crossTab({ [option]: value } as never)).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_OPTION, message: expect.stringContaining(option) }),
    );
  });

  test('outside a browser window, without a BroadcastChannel given, a store opens no channel', async () => {
    const feature = crossTab();
    const cache = createLeanCache({ features: [feature] });
    const store = configureStore({
      reducer: { [cache.reducerPath]: cache.reducer },
      middleware: getDefault => getDefault().concat(cache.middleware),
    });
    const listener = new BroadcastChannel('lenscache:cache');
    const heard: unknown[] = [];
    listener.onmessage = event => heard.push(event.data);
    store.dispatch(cache.setResponse(getNote, '1', { id: '1', title: 'x' }));
    await new Promise(resolve => setImmediate(resolve));
    listener.close();
    expect(heard).toEqual([]);
  });

  test('the uncalled factory in a features list is INVALID_OPTION', () => {
    expect(() => createLeanCache({ features: [crossTab as never] })).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_OPTION, message: expect.stringContaining('crossTab()') }),
    );
  });
});

describe('hostile messages: UNEXPECTED_INPUT told to onError, and the store unchanged', () => {
  const now = Date.now();
  const meta = { fetchedAt: now, date: now, expiresAt: now + 60_000 };
  const cyclic: Record<string, unknown> = { id: 'c', title: 'loop' };
  cyclic.self = cyclic;
  const from = 'hostile';
  const part = (state: unknown) => ({ path: 'cache', from, state });
  const row = (value: unknown, rowMeta: unknown = meta) =>
    part({ entities: { Note: { x: value } }, entitiesMeta: { Note: { x: rowMeta } } });
  const hostile: Array<[string, unknown]> = [
    ['a string', 'state'],
    ['null', null],
    ['a message without path and from', { state: {} }],
    ['a `to` that is not a string', { path: 'cache', from, to: 5, state: {} }],
    ['a hello without a sender', { path: 'cache', from: 7, hello: true }],
    ['a state that is not an object', part('everything')],
    ['a state holding a list', part([1, 2])],
    ['a map that is not an object', part({ entities: 5 })],
    ['a table that is not an object', part({ entities: { Note: 'rows' } })],
    ['a row with a cycle', row(cyclic)],
    ['a row holding a Map', row({ id: 'x', title: new Map([[1, 2]]) })],
    ['a row holding a Date', row({ id: 'x', title: new Date(0) })],
    ['a row holding a BigInt', row({ id: 'x', title: 10n })],
    ['NaN in a row', row({ id: 'x', title: Number.NaN })],
    ['Infinity in a row', row({ id: 'x', title: Infinity })],
    ['a stamp beyond safe integers', row({ id: 'x', title: 'x' }, { ...meta, fetchedAt: 1e300 })],
    ['the largest number as a stamp', row({ id: 'x', title: 'x' }, { ...meta, fetchedAt: Number.MAX_VALUE })],
    ['a stamp far in the future', row({ id: 'x', title: 'x' }, { ...meta, fetchedAt: now + 10 * 86_400_000 })],
    ['a meta that is not an object', part({ meta: { k: 7 }, endpoints: { k: 'x' } })],
    ['a meta with a cycle', part({ meta: { k: cyclic }, endpoints: { k: 'x' } })],
  ];

  test.each(hostile)('%s', async (_, message) => {
    const { b, name } = twoTabs();
    b.store.dispatch(b.cache.setResponse(getNote, 'kept', { id: 'kept', title: 'kept' }));
    const before = b.store.getState();
    const sender = new BroadcastChannel(name);
    sender.postMessage(message);
    sender.close();
    await until(() => b.errors.length > 0);
    expect(b.errors).toEqual([expect.objectContaining({ code: ErrorCode.UNEXPECTED_INPUT })]);
    expect(b.store.getState()).toBe(before);
  });

  test('a message for another cache path is left alone', async () => {
    const { a, b, name } = twoTabs();
    const before = b.store.getState();
    const sender = new BroadcastChannel(name);
    sender.postMessage({ path: 'other', from, state: { entities: { Note: { x: cyclic } } } });
    sender.close();
    // A's later answer arrives after it.
    const read = a.store.dispatch(a.cache.fetch(getNote, '9'));
    await answerLast({ id: '9', title: 'marker' }, read);
    await until(() => b.title('9') === 'marker');
    expect(b.errors).toEqual([]);
    expect(b.slice().entities.Note!.x).toBeUndefined();
    expect(before).not.toBe(b.store.getState());
  });

  test('a __proto__ key is a row like any other: no prototype is written', async () => {
    const { b, name } = twoTabs();
    const text = `{"path":"cache","from":"x","state":{"entities":{"Note":{"__proto__":{"id":"__proto__","title":"polluted","isAdmin":true}}},"entitiesMeta":{"Note":{"__proto__":${JSON.stringify(meta)}}}}}`;
    const sender = new BroadcastChannel(name);
    sender.postMessage(JSON.parse(text));
    sender.close();
    await until(() => b.title('__proto__') === 'polluted');
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('title');
    expect(b.errors).toEqual([]);
  });

  test('what onError is told does not stop the channel: a good message after a bad one is merged', async () => {
    const { a, b, name } = twoTabs();
    const sender = new BroadcastChannel(name);
    sender.postMessage('junk');
    sender.close();
    await until(() => b.errors.length > 0);
    const edit = a.store.dispatch(a.cache.fetch(editNote, '1', { title: 'after junk' }));
    await answerLast({ id: '1', title: 'after junk' }, edit);
    await until(() => b.title('1') === 'after junk');
  });
});

/** Entity on the write side: pks, keys, nested schemas, process/merge/shouldReorder/validate, ordering, no-op writes, prototype keys. */
import { applyPatches, enablePatches, type Patch as ImmerPatch } from 'immer';
import { Entity, ErrorCode, Invalidate, LensCacheError, normalize, type CacheState } from '../../src/index';
import { Comment, Post, User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint, hasOwn } from '../fixtures/writes';

enablePatches();

afterEach(() => {
  jest.restoreAllMocks();
});

class Article extends Entity {
  id = '';
  title = '';
  body = '';
  static override key = 'Article';
}

describe('pk rules', () => {
  test('a number pk is stored under String(pk) and the row keeps the number', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Article, { id: 5, title: 'five' }));
    const table = store.getState().cache.entities.Article!;
    expect(Object.keys(table)).toEqual(['5']);
    expect(table['5']).toEqual({ id: 5, title: 'five' });
    expect((table['5'] as { id: unknown }).id).toBe(5);
    expect(cache.selectQuery(store.getState(), Article, 5)?.id).toBe(5);
  });

  test('pk 0 is usable', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Article, { id: 0, title: 'zero' }));
    expect(store.getState().cache.entities.Article!['0']).toEqual({ id: 0, title: 'zero' });
  });

  test.each([
    ['an empty string', { id: '', title: 'x' }],
    ["the string 'undefined'", { id: 'undefined', title: 'x' }],
    ['a missing id', { title: 'x' }],
    ['a null id', { id: null, title: 'x' }],
    ['NaN', { id: NaN, title: 'x' }],
    ['Infinity', { id: Infinity, title: 'x' }],
  ])('%s throws MISSING_PK naming the entity and `id`, and writes nothing', (_name, input) => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Article, { id: 'kept', title: 'k' }));
    const before = store.getState().cache;
    const error = catchError(() => store.dispatch(cache.set(Article, input)));
    expect(error).toBeInstanceOf(LensCacheError);
    expect(error.code).toBe(ErrorCode.MISSING_PK);
    expect(error.status).toBe(400);
    expect(error.message).toContain('Article');
    expect(error.message).toMatch(/\bid\b/);
    const after = store.getState().cache;
    expect(after).toBe(before);
    expect(snapshot(after)).toEqual(snapshot(before));
  });

  test('a nested entity without a pk throws MISSING_PK naming the nested entity', () => {
    const { cache, store } = makeStore();
    const before = store.getState().cache;
    const error = catchError(() =>
      store.dispatch(cache.set(Post, { id: 'p1', title: 't', author: { name: 'no id' } })),
    );
    expect(error.code).toBe(ErrorCode.MISSING_PK);
    expect(error.message).toContain('User');
    expect(store.getState().cache).toBe(before);
  });

  test('a custom static pk may read parent, key and args', () => {
    const calls: unknown[][] = [];
    class Seat extends Entity {
      row = '';
      num = 0;
      static override key = 'Seat';
      static override pk(value: object, parent?: unknown, key?: string, args?: readonly unknown[]) {
        calls.push([parent, key, args]);
        const seat = value as { row: string; num: number };
        const venue = (args?.[0] as { venue?: string } | undefined)?.venue;
        const hall = (parent as { hall?: string } | undefined)?.hall;
        return `${venue}/${hall}/${key}/${seat.row}${seat.num}`;
      }
    }
    class Booking extends Entity {
      id = '';
      hall = '';
      static override key = 'Booking';
      static override schema = { seat: Seat };
    }
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Booking, { venue: 'opera' }, { id: 'b1', hall: 'H2', seat: { row: 'C', num: 7 } }));
    const entities = store.getState().cache.entities;
    expect(Object.keys(entities.Seat!)).toEqual(['opera/H2/seat/C7']);
    expect(entities.Booking!['b1']).toEqual({ id: 'b1', hall: 'H2', seat: 'opera/H2/seat/C7' });
    const [parent, key, args] = calls[0]!;
    expect(parent).toEqual(expect.objectContaining({ id: 'b1', hall: 'H2' }));
    expect(key).toBe('seat');
    expect(args).toEqual([{ venue: 'opera' }]);
  });

  test('an instance pk() override is used for the row key, and the read finds it', () => {
    class Slugged extends Entity {
      slug = '';
      title = '';
      static override key = 'Slugged';
      override pk() {
        return this.slug;
      }
    }
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Slugged, { slug: 'hello-world', title: 'Hello' }));
    expect(Object.keys(store.getState().cache.entities.Slugged!)).toEqual(['hello-world']);
    const read = cache.selectQuery(store.getState(), Slugged, 'hello-world');
    expect(read).toBeInstanceOf(Slugged);
    expect(read?.title).toBe('Hello');
  });

  test('a composite pk containing `|` is stored and read back under that key', () => {
    class Listing extends Entity {
      type = '';
      num = 0;
      price = 0;
      static override key = 'Listing';
      override pk() {
        return `${this.type}|${this.num}`;
      }
    }
    const { cache, store } = makeStore();
    store.dispatch(
      cache.set(
        [Listing],
        [
          { type: 'stock', num: 123, price: 5 },
          { type: 'bond', num: 123, price: 9 },
        ],
      ),
    );
    const table = store.getState().cache.entities.Listing!;
    expect(Object.keys(table)).toEqual(['stock|123', 'bond|123']);
    expect(cache.selectQuery(store.getState(), Listing, 'bond|123')?.price).toBe(9);
  });
});

describe('static key', () => {
  test('defaults to the class name, with a development warning once per class naming the fix', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    class Widget extends Entity {
      id = '';
      label = '';
    }
    expect(Widget.key).toBe('Widget');
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Widget, { id: 'w1', label: 'gear' }));
    store.dispatch(cache.set(Widget, { id: 'w2', label: 'cog' }));
    expect(cache.selectQuery(store.getState(), Widget, 'w1')?.label).toBe('gear');
    expect(store.getState().cache.entities.Widget!['w1']).toEqual({ id: 'w1', label: 'gear' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toContain('"Widget" has no `static key`');
    expect(warn.mock.calls[0]![0]).toContain("static override key = 'Widget';");

    // A subclass inherits its parent's table name, not its own class name: no warning for it,
    // nor for a class with its own key.
    class Part extends Entity {
      id = '';
      static override key = 'Part';
    }
    class Bolt extends Part {
      size = 0;
    }
    store.dispatch(cache.set(Part, { id: 'p1' }));
    store.dispatch(cache.set(Bolt, { id: 'b1', size: 4 }));
    expect(Bolt.key).toBe('Part');
    expect(warn.mock.calls.filter(([message]) => String(message).includes('has no `static key`'))).toHaveLength(1);
  });

  test('an explicit key names the table, not the class name', () => {
    class Renamed extends Entity {
      id = '';
      static override key = 'SomethingElse';
    }
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Renamed, { id: '1' }));
    expect(Object.keys(store.getState().cache.entities)).toEqual(['SomethingElse']);
  });
});

describe('nested schemas', () => {
  test('nested entities are stored in their own tables and the parent holds refs', () => {
    const { cache, store } = makeStore();
    store.dispatch(
      cache.set(Post, {
        id: 'p1',
        title: 'Hello',
        author: { id: 'u1', name: 'Ann' },
        comments: [
          { id: 'c1', body: 'first', author: { id: 'u2', name: 'Bob' } },
          { id: 'c2', body: 'second', author: { id: 'u1', name: 'Ann' } },
        ],
      }),
    );
    const { entities, entitiesMeta } = store.getState().cache;
    expect(entities.Post!['p1']).toEqual({ id: 'p1', title: 'Hello', author: 'u1', comments: ['c1', 'c2'] });
    expect(entities.Comment!['c1']).toEqual({ id: 'c1', body: 'first', author: 'u2' });
    expect(entities.Comment!['c2']).toEqual({ id: 'c2', body: 'second', author: 'u1' });
    expect(entities.User).toEqual({ u1: { id: 'u1', name: 'Ann' }, u2: { id: 'u2', name: 'Bob' } });
    for (const table of ['Post', 'Comment', 'User']) {
      for (const rowKey of Object.keys(entities[table]!)) {
        expect(entitiesMeta[table]![rowKey]).toEqual({
          fetchedAt: expect.any(Number),
          date: expect.any(Number),
          expiresAt: expect.any(Number),
        });
      }
    }
  });

  test('a string or number where an entity is expected is a ref: no row is written', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Post, { id: 'p1', title: 't', author: 7, comments: ['c9'] }));
    const { entities } = store.getState().cache;
    expect(entities.Post!['p1']).toEqual({ id: 'p1', title: 't', author: '7', comments: ['c9'] });
    expect(entities.User).toBeUndefined();
    expect(entities.Comment).toBeUndefined();
  });

  test('set writes rows with fetchedAt = now and expiresAt = now + 60 000', () => {
    jest.spyOn(Date, 'now').mockReturnValue(5_000);
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Article, { id: '1', title: 't' }));
    expect(store.getState().cache.entitiesMeta.Article!['1']).toEqual({
      fetchedAt: 5_000,
      date: 5_000,
      expiresAt: 65_000,
    });
    expect(store.getState().cache.endpoints).toEqual({});
    expect(store.getState().cache.meta).toEqual({});
  });
});

describe('process', () => {
  test('its return value is what is stored, and it receives parent, key and args', () => {
    const calls: unknown[][] = [];
    class Person extends Entity {
      id = '';
      fullName = '';
      static override key = 'Person';
      static override process(input: object, parent: unknown, key: string | undefined, args: readonly unknown[]) {
        calls.push([parent, key, args]);
        const raw = input as { id: string; first: string; last: string };
        return { id: raw.id, fullName: `${raw.first} ${raw.last}` };
      }
    }
    class Team extends Entity {
      id = '';
      static override key = 'Team';
      static override schema = { lead: Person };
    }
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Team, { org: 'acme' }, { id: 't1', lead: { id: 'x1', first: 'Ada', last: 'Lovelace' } }));
    expect(store.getState().cache.entities.Person!['x1']).toEqual({ id: 'x1', fullName: 'Ada Lovelace' });
    expect(store.getState().cache.entities.Team!['t1']).toEqual({ id: 't1', lead: 'x1' });
    const [parent, key, args] = calls[0]!;
    expect(parent).toEqual(expect.objectContaining({ id: 't1' }));
    expect(key).toBe('lead');
    expect(args).toEqual([{ org: 'acme' }]);
  });

  test('returning undefined deletes: a tombstone (null) at the input pk, and the ref is still returned', () => {
    class Doc extends Entity {
      id = '';
      title = '';
      static override key = 'SoftDoc';
      static override process(input: object) {
        return (input as { deleted?: boolean }).deleted ? undefined : { ...input };
      }
    }
    const getDoc = endpoint('GET /doc', Doc);
    const { cache, store } = makeStore();
    store.dispatch(
      cache.resolve(getDoc, { args: [{ id: '1' }], response: { id: '1', title: 'live' }, fetchedAt: 100 }),
    );
    expect(store.getState().cache.entities.SoftDoc!['1']).toEqual({ id: '1', title: 'live' });
    store.dispatch(
      cache.resolve(getDoc, { args: [{ id: '1' }], response: { id: '1', deleted: true }, fetchedAt: 200 }),
    );
    const state = store.getState().cache;
    expect(hasOwn(state.entities.SoftDoc, '1')).toBe(true);
    expect(state.entities.SoftDoc!['1']).toBeNull();
    expect(state.entitiesMeta.SoftDoc!['1']!.fetchedAt).toBe(200);
    expect(state.endpoints[getDoc.key({ id: '1' })]).toBe('1');
    expect(cache.selectQuery(store.getState(), Doc, '1')).toBeUndefined();
  });
});

describe('merge', () => {
  test('a custom merge decides the stored row', () => {
    class Counter extends Entity {
      id = '';
      hits = 0;
      static override key = 'Counter';
      static override merge(existing: object, incoming: object) {
        const a = existing as { hits: number };
        const b = incoming as { hits: number };
        return { ...existing, ...incoming, hits: a.hits + b.hits };
      }
    }
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Counter, { id: 'c', hits: 1 }));
    store.dispatch(cache.set(Counter, { id: 'c', hits: 2 }));
    expect(store.getState().cache.entities.Counter!['c']).toEqual({ id: 'c', hits: 3 });
  });

  test('an older write is merged as merge(incoming, existing)', () => {
    const seen: unknown[][] = [];
    class Tracked extends Entity {
      id = '';
      v = '';
      static override key = 'Tracked';
      static override merge(existing: object, incoming: object) {
        seen.push([existing, incoming]);
        return { ...existing, ...incoming };
      }
    }
    const ep = endpoint('GET /tracked', Tracked);
    const { cache, store } = makeStore();
    store.dispatch(cache.resolve(ep, { args: [], response: { id: '1', v: 'new' }, fetchedAt: 200 }));
    store.dispatch(cache.resolve(ep, { args: [], response: { id: '1', v: 'old', extra: 1 }, fetchedAt: 100 }));
    expect(seen.at(-1)).toEqual([
      { id: '1', v: 'old', extra: 1 },
      { id: '1', v: 'new' },
    ]);
    expect(store.getState().cache.entities.Tracked!['1']).toEqual({ id: '1', v: 'new', extra: 1 });
  });
});

describe('shouldReorder', () => {
  test('a custom shouldReorder is given both metas and rows, and its answer decides which side wins', () => {
    const calls: unknown[][] = [];
    class Versioned extends Entity {
      id = '';
      version = 0;
      label = '';
      static override key = 'Versioned';
      static override shouldReorder(
        existingMeta: { fetchedAt: number },
        incomingMeta: { fetchedAt: number },
        existing: unknown,
        incoming: unknown,
      ) {
        calls.push([existingMeta.fetchedAt, incomingMeta.fetchedAt, existing, incoming]);
        return (incoming as { version: number }).version < (existing as { version: number }).version;
      }
    }
    const ep = endpoint('GET /versioned', Versioned);
    const { cache, store } = makeStore();
    store.dispatch(cache.resolve(ep, { args: [], response: { id: '1', version: 2, label: 'v2' }, fetchedAt: 100 }));
    // Newer by time, older by version: the stored row wins and its meta stays.
    store.dispatch(
      cache.resolve(ep, { args: [], response: { id: '1', version: 1, label: 'v1', note: 'n' }, fetchedAt: 200 }),
    );
    const state = store.getState().cache;
    expect(calls).toEqual([
      [100, 200, { id: '1', version: 2, label: 'v2' }, { id: '1', version: 1, label: 'v1', note: 'n' }],
    ]);
    expect(state.entities.Versioned!['1']).toEqual({ id: '1', version: 2, label: 'v2', note: 'n' });
    expect(state.entitiesMeta.Versioned!['1']!.fetchedAt).toBe(100);
    // Older by time, newer by version: the incoming row wins.
    store.dispatch(cache.resolve(ep, { args: [], response: { id: '1', version: 3, label: 'v3' }, fetchedAt: 50 }));
    expect(store.getState().cache.entities.Versioned!['1']).toEqual({ id: '1', version: 3, label: 'v3', note: 'n' });
    expect(store.getState().cache.entitiesMeta.Versioned!['1']!.fetchedAt).toBe(50);
  });
});

describe('validate', () => {
  class Priced extends Entity {
    id = '';
    price = 0;
    static override key = 'Priced';
    static override validate(processed: object) {
      const price = (processed as { price?: unknown }).price;
      return typeof price === 'number' && price >= 0
        ? undefined
        : `price must be a non-negative number, got ${String(price)}`;
    }
  }

  test('a valid row is written', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Priced, { id: '1', price: 3 }));
    expect(store.getState().cache.entities.Priced!['1']).toEqual({ id: '1', price: 3 });
  });

  test('a message from validate throws VALIDATION_FAILED carrying it, and writes nothing', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Priced, { id: '1', price: 3 }));
    const before = store.getState().cache;
    const error = catchError(() =>
      store.dispatch(
        cache.set(
          [Priced],
          [
            { id: '2', price: 1 },
            { id: '1', price: -4 },
          ],
        ),
      ),
    );
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.status).toBe(400);
    expect(error.message).toContain('price must be a non-negative number, got -4');
    expect(store.getState().cache).toBe(before);
    expect(snapshot(store.getState().cache)).toEqual(snapshot(before));
  });
});

describe('fetchedAt ordering', () => {
  const getArticle = endpoint('GET /article', Article);
  const deleteArticle = endpoint('DELETE /article', new Invalidate(Article));

  function setup() {
    const { cache, store } = makeStore();
    const write = (response: unknown, fetchedAt: number) =>
      store.dispatch(cache.resolve(getArticle, { args: [{ id: '1' }], response, fetchedAt }));
    const remove = (fetchedAt: number) =>
      store.dispatch(cache.resolve(deleteArticle, { args: [{ id: '1' }], response: { id: '1' }, fetchedAt }));
    const row = () => store.getState().cache.entities.Article?.['1'];
    const meta = () => store.getState().cache.entitiesMeta.Article?.['1'];
    return { cache, store, write, remove, row, meta };
  }

  test('none + row: the incoming row and meta are stored', () => {
    const { write, row, meta } = setup();
    write({ id: '1', title: 'a' }, 100);
    expect(row()).toEqual({ id: '1', title: 'a' });
    expect(meta()!.fetchedAt).toBe(100);
  });

  test('none + tombstone: the tombstone and its meta are stored', () => {
    const { remove, store, meta } = setup();
    remove(100);
    expect(hasOwn(store.getState().cache.entities.Article, '1')).toBe(true);
    expect(store.getState().cache.entities.Article!['1']).toBeNull();
    expect(meta()!.fetchedAt).toBe(100);
  });

  test('row + newer row: merged with incoming winning (null overwrites), incoming meta', () => {
    const { write, row, meta } = setup();
    write({ id: '1', title: 'a', body: 'b' }, 100);
    write({ id: '1', title: null, extra: 'e' }, 200);
    expect(row()).toEqual({ id: '1', title: null, body: 'b', extra: 'e' });
    expect(meta()!.fetchedAt).toBe(200);
  });

  test('row + row with equal fetchedAt counts as newer', () => {
    const { write, row, meta } = setup();
    write({ id: '1', title: 'first' }, 100);
    const firstMeta = meta();
    write({ id: '1', title: 'second' }, 100);
    expect(row()).toEqual({ id: '1', title: 'second' });
    expect(meta()!.fetchedAt).toBe(100);
    expect(meta()!.date).toBeGreaterThanOrEqual(firstMeta!.date);
  });

  test('row + older row: existing wins on overlap, new fields are added, existing meta kept', () => {
    const { write, row, meta } = setup();
    write({ id: '1', title: 'new', body: 'b' }, 200);
    const storedMeta = meta();
    write({ id: '1', title: 'old', body: null, extra: 'e' }, 100);
    expect(row()).toEqual({ id: '1', title: 'new', body: 'b', extra: 'e' });
    expect(meta()).toEqual(storedMeta);
    expect(meta()!.fetchedAt).toBe(200);
  });

  test('row + newer tombstone: the tombstone replaces the row, incoming meta', () => {
    const { write, remove, row, meta } = setup();
    write({ id: '1', title: 'a' }, 100);
    remove(200);
    expect(row()).toBeNull();
    expect(meta()!.fetchedAt).toBe(200);
  });

  test('row + older tombstone: the row is kept with its meta', () => {
    const { write, remove, row, meta } = setup();
    write({ id: '1', title: 'a' }, 200);
    const stored = row();
    remove(100);
    expect(row()).toBe(stored);
    expect(row()).toEqual({ id: '1', title: 'a' });
    expect(meta()!.fetchedAt).toBe(200);
  });

  test('tombstone + newer row: the row replaces it entirely (no field survives the deletion)', () => {
    const { write, remove, row, meta } = setup();
    write({ id: '1', title: 'a', body: 'before deletion' }, 100);
    remove(200);
    write({ id: '1', title: 'back' }, 300);
    expect(row()).toEqual({ id: '1', title: 'back' });
    expect(hasOwn(row(), 'body')).toBe(false);
    expect(meta()!.fetchedAt).toBe(300);
  });

  test('tombstone + older row: the tombstone is kept with its meta', () => {
    const { cache, store, write, remove, row, meta } = setup();
    remove(200);
    write({ id: '1', title: 'stale' }, 100);
    expect(row()).toBeNull();
    expect(meta()!.fetchedAt).toBe(200);
    expect(cache.selectQuery(store.getState(), Article, '1')).toBeUndefined();
  });

  test('tombstone + newer tombstone: tombstone, newer meta', () => {
    const { remove, row, meta } = setup();
    remove(100);
    remove(200);
    expect(row()).toBeNull();
    expect(meta()!.fetchedAt).toBe(200);
  });

  test('tombstone + older tombstone: tombstone, the stored (newer) meta is kept', () => {
    const { remove, row, meta } = setup();
    remove(200);
    remove(100);
    expect(row()).toBeNull();
    expect(meta()!.fetchedAt).toBe(200);
  });

  test('an older response still merges its rows but does not replace the endpoint entry', () => {
    const getArticles = endpoint('GET /articles', [Article]);
    const { cache, store } = makeStore();
    store.dispatch(cache.resolve(getArticles, { args: [], response: [{ id: '1', title: 'new' }], fetchedAt: 200 }));
    const key = getArticles.key();
    const storedResult = store.getState().cache.endpoints[key];
    store.dispatch(
      cache.resolve(getArticles, {
        args: [],
        response: [
          { id: '2', title: 'two' },
          { id: '1', title: 'old' },
        ],
        fetchedAt: 100,
      }),
    );
    const state = store.getState().cache;
    expect(state.endpoints[key]).toBe(storedResult);
    expect(state.endpoints[key]).toEqual(['1']);
    expect(state.meta[key]!.fetchedAt).toBe(200);
    expect(state.entities.Article!['1']).toEqual({ id: '1', title: 'new' });
    expect(state.entities.Article!['2']).toEqual({ id: '2', title: 'two' });
  });
});

describe('undefined properties', () => {
  test('are not stored', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Article, { id: '1', title: 'a', body: undefined }));
    const row = store.getState().cache.entities.Article!['1'];
    expect(row).toEqual({ id: '1', title: 'a' });
    expect(hasOwn(row, 'body')).toBe(false);
  });

  test('never erase stored fields, including nested schema fields', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Post, { id: 'p1', title: 'a', author: { id: 'u1', name: 'Ann' }, comments: [] }));
    store.dispatch(cache.set(Post, { id: 'p1', title: undefined, author: undefined, comments: undefined, extra: 'x' }));
    expect(store.getState().cache.entities.Post!['p1']).toEqual({
      id: 'p1',
      title: 'a',
      author: 'u1',
      comments: [],
      extra: 'x',
    });
  });

  test('no undefined value reaches the slice, even inside a raw nested object', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Article, { id: '1', title: 'a', info: { pages: 3, draft: undefined } }));
    const row = store.getState().cache.entities.Article!['1'] as { info: object };
    expect(row.info).toEqual({ pages: 3 });
    expect(hasOwn(row.info, 'draft')).toBe(false);
  });
});

describe('arrays and untouched data', () => {
  test('an array inside a row is replaced whole, never concatenated', () => {
    const ep = endpoint('GET /article/tags', Article);
    const { cache, store } = makeStore();
    store.dispatch(cache.resolve(ep, { args: [], response: { id: '1', tags: ['a', 'b', 'c'] }, fetchedAt: 100 }));
    store.dispatch(cache.resolve(ep, { args: [], response: { id: '1', tags: ['d'] }, fetchedAt: 200 }));
    expect(store.getState().cache.entities.Article!['1']).toEqual({ id: '1', tags: ['d'] });
    store.dispatch(cache.resolve(ep, { args: [], response: { id: '1', tags: ['old', 'er'] }, fetchedAt: 150 }));
    expect(store.getState().cache.entities.Article!['1']).toEqual({ id: '1', tags: ['d'] });
  });

  test('tables and rows a write does not touch keep their identity', () => {
    const { cache, store } = makeStore();
    store.dispatch(
      cache.set(
        [Article],
        [
          { id: '1', title: 'one' },
          { id: '2', title: 'two' },
        ],
      ),
    );
    store.dispatch(cache.set(Post, { id: 'p1', title: 'P', author: { id: 'u1', name: 'A' } }));
    const before = store.getState().cache;
    store.dispatch(cache.set(Article, { id: '1', title: 'ONE' }));
    const after = store.getState().cache;
    expect(after.entities.Article!['1']).toEqual({ id: '1', title: 'ONE' });
    expect(after.entities.Article).not.toBe(before.entities.Article);
    expect(after.entities.Article!['2']).toBe(before.entities.Article!['2']);
    expect(after.entities.Post).toBe(before.entities.Post);
    expect(after.entities.User).toBe(before.entities.User);
    expect(after.endpoints).toBe(before.endpoints);
    expect(after.meta).toBe(before.meta);
  });
});

describe('cache.set with an updater', () => {
  test('the updater receives a draft of selectQuery(state, schema, ...args) and its return value is written', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Article, { id: '1', title: 'draft', body: 'b' }));
    const current = cache.selectQuery(store.getState(), Article, '1');
    const received: unknown[] = [];
    store.dispatch(
      cache.set(Article, '1', (previous: Article | undefined) => {
        // A draft (docs/store.md, "Updaters"): equal to the cached value, of its class, not the frozen object itself.
        received.push({ ...previous });
        expect(previous).toBeInstanceOf(Article);
        expect(previous).not.toBe(current);
        return { id: '1', title: `${previous?.title}!` };
      }),
    );
    expect(received).toEqual([{ ...current }]);
    expect(store.getState().cache.entities.Article!['1']).toEqual({ id: '1', title: 'draft!', body: 'b' });
  });

  test('an updater returning undefined writes nothing', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Article, { id: '1', title: 'draft' }));
    const before = store.getState().cache;
    store.dispatch(cache.set(Article, '1', () => undefined));
    expect(store.getState().cache).toBe(before);
  });

  test('an updater is not called when the row is absent, and nothing is written', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Article, { id: '1', title: 'draft' }));
    const before = store.getState().cache;
    let calls = 0;
    store.dispatch(
      cache.set(Article, '9', () => {
        calls++;
        return { id: '9', title: 'new' };
      }),
    );
    expect(calls).toBe(0);
    expect(store.getState().cache).toBe(before);
  });
});

describe('one write', () => {
  test('the same row twice is merged in document order, later wins', () => {
    const { cache, store } = makeStore();
    store.dispatch(
      cache.set(
        [Article],
        [
          { id: '1', title: 'first', body: 'kept' },
          { id: '2', title: 'other' },
          { id: '1', title: 'second' },
        ],
      ),
    );
    const table = store.getState().cache.entities.Article!;
    expect(table['1']).toEqual({ id: '1', title: 'second', body: 'kept' });
    expect(Object.keys(table)).toEqual(['1', '2']);
  });

  test('the same row twice merges without a time check even against a newer stored row', () => {
    const getArticles = endpoint('GET /articles', [Article]);
    const { cache, store } = makeStore();
    store.dispatch(
      cache.resolve(getArticles, { args: [], response: [{ id: '1', title: 'stored', body: 'b' }], fetchedAt: 100 }),
    );
    store.dispatch(
      cache.resolve(getArticles, {
        args: [],
        response: [
          { id: '1', title: 'x' },
          { id: '1', title: 'y', extra: 'e' },
        ],
        fetchedAt: 200,
      }),
    );
    expect(store.getState().cache.entities.Article!['1']).toEqual({ id: '1', title: 'y', body: 'b', extra: 'e' });
  });

  test('a row then its deletion in one write leaves the tombstone; a deletion then a row leaves the row', () => {
    class Note extends Entity {
      id = '';
      text = '';
      static override key = 'OneWriteNote';
      static override process(input: object) {
        return (input as { deleted?: boolean }).deleted ? undefined : { ...input };
      }
    }
    const { cache, store } = makeStore();
    store.dispatch(
      cache.set(
        [Note],
        [
          { id: '1', text: 'a' },
          { id: '1', deleted: true },
          { id: '2', deleted: true },
          { id: '2', text: 'b' },
        ],
      ),
    );
    const table = store.getState().cache.entities.OneWriteNote!;
    expect(hasOwn(table, '1')).toBe(true);
    expect(table['1']).toBeNull();
    expect(table['2']).toEqual({ id: '2', text: 'b' });
  });

  test('a nested copy of a row met later in the document wins over an earlier one', () => {
    const { cache, store } = makeStore();
    store.dispatch(
      cache.set(Post, {
        id: 'p1',
        title: 't',
        author: { id: 'u1', name: 'early' },
        comments: [{ id: 'c1', body: 'b', author: { id: 'u1', name: 'late' } }],
      }),
    );
    expect(store.getState().cache.entities.User!['u1']).toEqual({ id: 'u1', name: 'late' });
  });
});

describe('cycles', () => {
  class Node extends Entity {
    id = '';
    name = '';
    static override key = 'CycleNode';
  }
  Node.schema = { next: Node, friends: [Node] };

  test('an object that refers back to itself through an entity field normalizes to a ref', () => {
    const a: Record<string, unknown> = { id: 'a', name: 'A' };
    a.next = a;
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Node, a));
    expect(store.getState().cache.entities.CycleNode).toEqual({ a: { id: 'a', name: 'A', next: 'a' } });
  });

  test('a longer cycle through lists normalizes every member once, to refs', () => {
    const a: Record<string, unknown> = { id: 'a', name: 'A' };
    const b: Record<string, unknown> = { id: 'b', name: 'B', next: a };
    const c: Record<string, unknown> = { id: 'c', name: 'C', friends: [a, b] };
    a.next = b;
    a.friends = [c];
    const { cache, store } = makeStore({ maxEntityDepth: 64 });
    store.dispatch(cache.set([Node], [a, b, c]));
    expect(store.getState().cache.entities.CycleNode).toEqual({
      a: { id: 'a', name: 'A', next: 'b', friends: ['c'] },
      b: { id: 'b', name: 'B', next: 'a' },
      c: { id: 'c', name: 'C', friends: ['a', 'b'] },
    });
    const read = cache.selectQuery(store.getState(), Node, 'a') as unknown as { next: { next: unknown } };
    expect(read.next.next).toBe(read);
  });
});

describe('no-op writes', () => {
  const getPosts = endpoint('GET /posts', [Post]);
  const input = () => [
    {
      id: '1',
      title: 'Hello',
      author: { id: 'u1', name: 'Ann' },
      comments: [{ id: 'c1', body: 'hi', author: { id: 'u2', name: 'Bob' } }],
    },
  ];

  test('normalize() emits no row patch for an identical rewrite, only meta patches', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.resolve(getPosts, { args: [], response: input(), fetchedAt: 1_000 }));
    const state = store.getState().cache;
    const meta = { fetchedAt: 2_000, date: 2_000, expiresAt: 62_000 };
    const { result, patches } = normalize([Post], input(), [], state, meta, { maxEntityDepth: 64 });
    expect(result).toEqual(['1']);
    expect(patches.filter(patch => patch.path[0] === 'entities')).toEqual([]);
    const next = applyPatches(snapshot(state) as object, patches as unknown as ImmerPatch[]) as CacheState;
    expect(next.entities).toEqual(snapshot(state.entities));
    expect(next.entitiesMeta.Post!['1']).toEqual(meta);
    expect(next.entitiesMeta.Comment!['c1']).toEqual(meta);
    expect(next.entitiesMeta.User!['u2']).toEqual(meta);
  });

  test('normalize() still patches a row whose merged content changed', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.resolve(getPosts, { args: [], response: input(), fetchedAt: 1_000 }));
    const changed = input();
    changed[0]!.title = 'Changed';
    const meta = { fetchedAt: 2_000, date: 2_000, expiresAt: 62_000 };
    const { patches } = normalize([Post], changed, [], store.getState().cache, meta, { maxEntityDepth: 64 });
    const rowPatches = patches.filter(patch => patch.path[0] === 'entities');
    expect(rowPatches.length).toBeGreaterThan(0);
    expect(rowPatches.every(patch => patch.path[1] === 'Post')).toBe(true);
    const next = applyPatches(
      snapshot(store.getState().cache) as object,
      patches as unknown as ImmerPatch[],
    ) as CacheState;
    expect(next.entities.Post!['1']).toEqual({ id: '1', title: 'Changed', author: 'u1', comments: ['c1'] });
  });

  test('the store keeps row, table and result identity, while meta moves forward', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.resolve(getPosts, { args: [], response: input(), fetchedAt: 1_000 }));
    const before = store.getState().cache;
    const post = before.entities.Post!['1'];
    const key = getPosts.key();
    store.dispatch(cache.resolve(getPosts, { args: [], response: input(), fetchedAt: 2_000 }));
    const after = store.getState().cache;
    expect(after.entities.Post!['1']).toBe(post);
    expect(after.entities.Post).toBe(before.entities.Post);
    expect(after.entities).toBe(before.entities);
    expect(after.endpoints[key]).toBe(before.endpoints[key]);
    expect(after.entitiesMeta.Post!['1']!.fetchedAt).toBe(2_000);
    expect(after.entitiesMeta.User!['u1']!.fetchedAt).toBe(2_000);
    expect(after.meta[key]!.fetchedAt).toBe(2_000);
  });

  test('cache.set of identical content keeps the row and moves its expiry forward', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Article, { id: '1', title: 'same' }));
    const row = store.getState().cache.entities.Article!['1'];
    now.mockReturnValue(9_000);
    store.dispatch(cache.set(Article, { id: '1', title: 'same' }));
    expect(store.getState().cache.entities.Article!['1']).toBe(row);
    expect(store.getState().cache.entitiesMeta.Article!['1']).toEqual({
      fetchedAt: 9_000,
      date: 9_000,
      expiresAt: 69_000,
    });
  });
});

describe('prototype keys', () => {
  class Page extends Entity {
    id = '';
    title = '';
    static override key = 'Page';
  }

  test.each(['__proto__', 'constructor', 'prototype'])('pk %s is stored as own data and read back', pk => {
    const input = JSON.parse(`{"id":${JSON.stringify(pk)},"title":"t-${pk}"}`) as object;
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Page, input));
    const table = store.getState().cache.entities.Page!;
    expect(hasOwn(table, pk)).toBe(true);
    expect(Object.keys(table)).toEqual([pk]);
    expect(table[pk]).toEqual({ id: pk, title: `t-${pk}` });
    const read = cache.selectQuery(store.getState(), Page, pk);
    expect(read).toBeInstanceOf(Page);
    expect(read).toEqual(input);
    expect(({} as Record<string, unknown>).title).toBeUndefined();
  });

  test.each(['__proto__', 'constructor', 'prototype'])(
    'Post with pk %s (and nested rows) reads back equal to the input',
    pk => {
      const json = `{"id":"${pk}","title":"t","author":{"id":"${pk}","name":"A"},"comments":[{"id":"${pk}","body":"b","author":"${pk}"}]}`;
      const input = JSON.parse(json) as object;
      const { cache, store } = makeStore();
      store.dispatch(cache.set(Post, input));
      const { entities } = store.getState().cache;
      for (const table of ['Post', 'User', 'Comment']) {
        expect(Object.keys(entities[table]!)).toEqual([pk]);
        expect(hasOwn(entities[table], pk)).toBe(true);
      }
      expect(snapshot(entities.Post)).toEqual(
        JSON.parse(`{"${pk}":{"id":"${pk}","title":"t","author":"${pk}","comments":["${pk}"]}}`),
      );
      const read = cache.selectQuery(store.getState(), Post, pk);
      expect(read).toBeInstanceOf(Post);
      expect(read).toEqual(JSON.parse(json.replace(`"author":"${pk}"`, `"author":{"id":"${pk}","name":"A"}`)));
      expect(read?.author).toBeInstanceOf(User);
      expect(read?.comments[0]).toBeInstanceOf(Comment);
      expect(({} as Record<string, unknown>).title).toBeUndefined();
    },
  );

  test('a field named __proto__ is stored as own data and does not change any prototype', () => {
    const input = JSON.parse('{"id":"x","title":"t","__proto__":{"polluted":1}}') as object;
    expect(hasOwn(input, '__proto__')).toBe(true);
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Page, input));
    const row = store.getState().cache.entities.Page!['x'];
    expect(hasOwn(row, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(row)).not.toEqual({ polluted: 1 });
    expect((row as Record<string, unknown>).polluted).toBeUndefined();
    expect(snapshot(row)).toEqual(JSON.parse('{"id":"x","title":"t","__proto__":{"polluted":1}}'));
    const read = cache.selectQuery(store.getState(), Page, 'x');
    expect(read).toBeInstanceOf(Page);
    expect(Object.getPrototypeOf(read)).toBe(Page.prototype);
    expect(hasOwn(read, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(read, '__proto__')!.value).toEqual({ polluted: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('an id of __proto__ with a __proto__ field does not pollute Object.prototype', () => {
    const input = JSON.parse('{"id":"__proto__","__proto__":{"polluted":1}}') as object;
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Page, input));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const table = store.getState().cache.entities.Page!;
    expect(hasOwn(table, '__proto__')).toBe(true);
    expect((table as Record<string, unknown>).polluted).toBeUndefined();
    expect(snapshot(table)).toEqual(JSON.parse('{"__proto__":{"id":"__proto__","__proto__":{"polluted":1}}}'));
  });
});

test('two classes with one key get a development warning naming both (schema/entityInfo.ts)', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const { cache, store } = makeStore();
  class FirstTwin extends Entity {
    id = '';
    static override key = 'TwinTable';
  }
  class SecondTwin extends Entity {
    id = '';
    static override key = 'TwinTable';
  }
  store.dispatch(cache.set(FirstTwin, { id: '1' }));
  expect(warn).not.toHaveBeenCalled();
  store.dispatch(cache.set(SecondTwin, { id: '2' }));
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]![0])).toMatch(/"TwinTable" \(FirstTwin and SecondTwin\)/);
});

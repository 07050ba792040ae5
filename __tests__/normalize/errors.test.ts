/**
 * Normalize errors (see docs/errors.md): thrown synchronously out of `cache.set` with the store unchanged,
 * stored as a plain record by `cache.setResponse` (which does not throw) with no entity written.
 */
import { Collection, Entity, ErrorCode, LensCacheError, normalize, Union, Values } from '../../src/index';
import { Post, User } from '../fixtures/schemas';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint, makeRecordingStore } from '../fixtures/writes';

class Chain extends Entity {
  id = '';
  label = '';
  static override key = 'Chain';
}
Chain.schema = { next: Chain };

/** A chain of `depth` nested entities: depth 1 is just the root. */
function chain(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { id: `n${depth}` };
  for (let i = depth - 1; i >= 1; i--) node = { id: `n${i}`, next: node };
  return node;
}

class Cat extends Entity {
  id = '';
  type = 'cats';
  static override key = 'Cat';
}
class Dog extends Entity {
  id = '';
  type = 'dogs';
  static override key = 'Dog';
}
const pets = new Union({ cats: Cat, dogs: Dog }, 'type');

class Processed extends Entity {
  id = '';
  static override key = 'Processed';
  static override process() {
    return 5 as never;
  }
}

/** Raw (schema-less) data `depth` objects deep. */
function deepRaw(depth: number): unknown {
  let node: unknown = { leaf: true };
  for (let i = 0; i < depth; i++) node = { node };
  return node;
}

/** A list schema `depth` arrays deep, and a value of the same shape ending in a Post. */
function deepSchema(depth: number): unknown {
  let schema: unknown = Post;
  for (let i = 0; i < depth; i++) schema = [schema];
  return schema;
}
function deepValue(depth: number): unknown {
  let value: unknown = { id: 'p9', title: 'deep' };
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function circular(): Record<string, unknown> {
  const meta: Record<string, unknown> = { a: 1 };
  meta.self = meta;
  return { id: 'p9', title: 'circular', extra: { meta } };
}

interface Case {
  name: string;
  schema: unknown;
  value: () => unknown;
  code: string;
  message?: RegExp;
  notMessage?: RegExp;
  maxEntityDepth?: number;
}

const cases: Case[] = [
  { name: 'a null response', schema: Post, value: () => null, code: ErrorCode.UNEXPECTED_INPUT },
  {
    name: 'an array for an Entity',
    schema: Post,
    value: () => [{ id: 'p9', title: 'x' }],
    code: ErrorCode.UNEXPECTED_INPUT,
  },
  { name: 'a number for an Entity', schema: Post, value: () => 42, code: ErrorCode.UNEXPECTED_INPUT },
  { name: 'a boolean for a list', schema: [Post], value: () => true, code: ErrorCode.UNEXPECTED_INPUT },
  {
    name: 'a string that is unparsed JSON (Entity)',
    schema: Post,
    value: () => '{"id":"p9","title":"x"}',
    code: ErrorCode.UNEXPECTED_INPUT,
    message: /parsed as JSON/,
  },
  {
    name: 'a string that is unparsed JSON (list)',
    schema: [Post],
    value: () => ' [{"id":"p9"}] ',
    code: ErrorCode.UNEXPECTED_INPUT,
    message: /parsed as JSON/,
  },
  {
    name: 'a string that is not JSON',
    schema: Post,
    value: () => 'Internal Server Error',
    code: ErrorCode.UNEXPECTED_INPUT,
    notMessage: /parsed as JSON/,
  },
  { name: 'a missing pk', schema: Post, value: () => ({ title: 'x' }), code: ErrorCode.MISSING_PK, message: /\bid\b/ },
  {
    name: 'an empty pk',
    schema: Post,
    value: () => ({ id: '', title: 'x' }),
    code: ErrorCode.MISSING_PK,
    message: /\bid\b/,
  },
  {
    name: 'a missing pk in the second list item',
    schema: [Post],
    value: () => [{ id: 'p9', title: 'ok' }, { title: 'no id' }],
    code: ErrorCode.MISSING_PK,
    message: /Post/,
  },
  {
    name: 'a missing pk in a nested entity',
    schema: Post,
    value: () => ({ id: 'p9', title: 'x', comments: [{ id: 'c9', body: 'b', author: { name: 'no id' } }] }),
    code: ErrorCode.MISSING_PK,
    message: /User/,
  },
  {
    name: 'an array where a nested entity object is expected',
    schema: Post,
    value: () => ({ id: 'p9', title: 'x', author: [{ id: 'u9' }] }),
    code: ErrorCode.UNEXPECTED_INPUT,
  },
  { name: 'circular raw data in a non-schema field', schema: Post, value: circular, code: ErrorCode.UNEXPECTED_INPUT },
  {
    name: 'a Date in a raw field',
    schema: Post,
    value: () => ({ id: 'p9', title: 'x', publishedAt: new Date(0) }),
    code: ErrorCode.UNEXPECTED_INPUT,
  },
  {
    name: 'a function in a raw field',
    schema: Post,
    value: () => ({ id: 'p9', title: 'x', onClick: () => 1 }),
    code: ErrorCode.UNEXPECTED_INPUT,
  },
  {
    name: 'a function nested inside a raw object',
    schema: Post,
    value: () => ({ id: 'p9', title: 'x', extra: { handlers: [() => 1] } }),
    code: ErrorCode.UNEXPECTED_INPUT,
  },
  {
    name: 'a Map in a raw field',
    schema: Post,
    value: () => ({ id: 'p9', title: 'x', tags: new Map([['a', 1]]) }),
    code: ErrorCode.UNEXPECTED_INPUT,
  },
  {
    name: 'a number where a nested list is expected',
    schema: Post,
    value: () => ({ id: 'p9', title: 'x', comments: 5 }),
    code: ErrorCode.UNEXPECTED_INPUT,
    message: /"comments"/,
  },
  {
    name: 'a number where a nested object schema is expected',
    schema: { data: { post: Post } },
    value: () => ({ data: 5 }),
    code: ErrorCode.UNEXPECTED_INPUT,
    message: /object schema \{post\}/,
  },
  {
    name: 'a list where a nested Values map is expected',
    schema: { byId: new Values(Post) },
    value: () => ({ byId: [{ id: 'p9' }] }),
    code: ErrorCode.UNEXPECTED_INPUT,
    message: /use \[Schema\]/,
  },
  {
    name: 'a boolean where a Union member is expected',
    schema: { pet: pets },
    value: () => ({ pet: true }),
    code: ErrorCode.UNEXPECTED_INPUT,
    message: /Union expected an object/,
  },
  {
    name: 'a nested Collection given an object',
    schema: { list: new Collection([Post]) },
    value: () => ({ list: { id: 'p9' } }),
    code: ErrorCode.UNEXPECTED_INPUT,
    message: /Collection \[Post\] at "list" expected an array/,
  },
  {
    name: 'Entity.process returning a non-object',
    schema: Processed,
    value: () => ({ id: 'x' }),
    code: ErrorCode.UNEXPECTED_INPUT,
    message: /Processed\.process\(\) returned number 5/,
  },
  {
    name: 'raw data nested deeper than the raw depth limit',
    schema: Post,
    value: () => ({ id: 'p9', title: 'x', extra: deepRaw(600) }),
    code: ErrorCode.MAX_DEPTH_EXCEEDED,
    message: /nests deeper than/,
  },
  {
    name: 'schemas nested deeper than the walk allows',
    schema: deepSchema(600),
    value: () => deepValue(600),
    code: ErrorCode.MAX_DEPTH_EXCEEDED,
    message: /schema levels/,
  },
  {
    name: 'entity nesting deeper than maxEntityDepth (3)',
    schema: Chain,
    value: () => chain(4),
    code: ErrorCode.MAX_DEPTH_EXCEEDED,
    maxEntityDepth: 3,
  },
];

/** A store with data in it, so "unchanged" is about a real state. */
function seededStore(maxEntityDepth?: number) {
  const made = makeStore(maxEntityDepth === undefined ? {} : { maxEntityDepth });
  const seed = endpoint('GET /seed', [Post]);
  made.store.dispatch(
    made.cache.setResponse(seed, [
      { id: 'p1', title: 'Seed', author: { id: 'u1', name: 'Ann' }, comments: [{ id: 'c1', body: 'b', author: 'u1' }] },
    ]),
  );
  made.store.dispatch(made.cache.set(Chain, chain(2)));
  return made;
}

describe.each(cases)('$name', ({ schema, value, code, message, notMessage, maxEntityDepth }) => {
  test(`cache.set throws ${code} (status 400) synchronously and the store is unchanged`, () => {
    const { cache, store } = seededStore(maxEntityDepth);
    const before = store.getState().cache;
    const beforeJson = snapshot(before);
    const error = catchError(() => store.dispatch(cache.set(schema, value())));
    expect(error).toBeInstanceOf(LensCacheError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(code);
    expect(error.status).toBe(400);
    if (message) expect(error.message).toMatch(message);
    if (notMessage) expect(error.message).not.toMatch(notMessage);
    const after = store.getState().cache;
    expect(after).toBe(before);
    expect(snapshot(after)).toEqual(beforeJson);
  });

  test('cache.setResponse does not throw; it stores the error record and writes no entity or result', () => {
    const { cache, store } = seededStore(maxEntityDepth);
    const ep = endpoint('GET /failing', schema);
    const thrown = catchError(() => store.dispatch(cache.set(schema, value())));
    const before = store.getState().cache;
    expect(() => store.dispatch(cache.setResponse(ep, { page: 1 }, value()))).not.toThrow();
    const after = store.getState().cache;
    expect(after.entities).toBe(before.entities);
    expect(after.entitiesMeta).toBe(before.entitiesMeta);
    expect(after.endpoints).toBe(before.endpoints);
    expect(snapshot(after.entities)).toEqual(snapshot(before.entities));
    const key = ep.key({ page: 1 });
    const stored = after.meta[key]!;
    expect(stored.error).toEqual({ name: thrown.name, message: thrown.message, code, status: 400 });
    expect(stored.error).not.toBeInstanceOf(Error);
    expect(stored.expiresAt - stored.date).toBe(1_000);
    expect(snapshot(after.meta)).toEqual({ ...(snapshot(before.meta) as object), [key]: snapshot(stored) });
  });

  test(`normalize() throws ${code} and leaves the state alone`, () => {
    const { store } = seededStore(maxEntityDepth);
    const state = store.getState().cache;
    const json = snapshot(state);
    let caught: unknown;
    try {
      normalize(
        schema,
        value(),
        [],
        state,
        { fetchedAt: 1, date: 1, expiresAt: 2 },
        { maxEntityDepth: maxEntityDepth ?? 64 },
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LensCacheError);
    expect((caught as LensCacheError).code).toBe(code);
    expect(store.getState().cache).toBe(state);
    expect(snapshot(state)).toEqual(json);
  });
});

describe('depth limits', () => {
  test('nesting exactly maxEntityDepth deep is written', () => {
    const { cache, store } = makeStore({ maxEntityDepth: 3 });
    store.dispatch(cache.set(Chain, chain(3)));
    expect(Object.keys(store.getState().cache.entities.Chain!)).toEqual(['n1', 'n2', 'n3']);
  });

  test('the default depth (64) accepts 64 levels and rejects 65', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Chain, chain(64)));
    expect(Object.keys(store.getState().cache.entities.Chain!)).toHaveLength(64);
    const before = store.getState().cache;
    const error = catchError(() => store.dispatch(cache.set(Chain, chain(65))));
    expect(error.code).toBe(ErrorCode.MAX_DEPTH_EXCEEDED);
    expect(store.getState().cache).toBe(before);
  });
});

describe('setResponse after a stored success', () => {
  test('a failing response keeps the stored result and rows, and records the error', () => {
    const getPost = endpoint('GET /post', Post);
    const { cache, store } = makeStore();
    store.dispatch(
      cache.setResponse(getPost, { id: 'p1' }, { id: 'p1', title: 'ok', author: { id: 'u1', name: 'A' } }),
    );
    const before = store.getState().cache;
    const key = getPost.key({ id: 'p1' });
    store.dispatch(cache.setResponse(getPost, { id: 'p1' }, { id: 'p1', title: 'bad', author: { name: 'no id' } }));
    const after = store.getState().cache;
    expect(after.entities).toBe(before.entities);
    expect(after.endpoints).toBe(before.endpoints);
    expect(after.endpoints[key]).toBe('p1');
    expect(after.meta[key]!.error).toEqual(expect.objectContaining({ code: ErrorCode.MISSING_PK, status: 400 }));
    const response = cache.selectResponse(store.getState(), getPost, { id: 'p1' });
    expect(response.error).toBeInstanceOf(Error);
    expect((response.error as LensCacheError).code).toBe(ErrorCode.MISSING_PK);
  });
});

describe('INVALID_SCHEMA', () => {
  test('Union without an attribute throws from the constructor', () => {
    let error: unknown;
    try {
      // @ts-expect-error the attribute is required
      new Union({ users: User, posts: Post });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LensCacheError);
    expect((error as LensCacheError).code).toBe(ErrorCode.INVALID_SCHEMA);
  });

  test('[A, B] throws out of cache.set and the store is unchanged', () => {
    const { cache, store } = seededStore();
    const before = store.getState().cache;
    const error = catchError(() => store.dispatch(cache.set([User, Post], [{ id: 'u9', name: 'x' }])));
    expect(error.code).toBe(ErrorCode.INVALID_SCHEMA);
    expect(store.getState().cache).toBe(before);
    expect(snapshot(store.getState().cache)).toEqual(snapshot(before));
  });

  test('[A, B] as an endpoint schema stores INVALID_SCHEMA and writes no entity', () => {
    const { cache, store } = seededStore();
    const ep = endpoint('GET /mixed', [User, Post]);
    const before = store.getState().cache;
    store.dispatch(cache.setResponse(ep, [{ id: 'u9', name: 'x' }]));
    const after = store.getState().cache;
    expect(after.entities).toBe(before.entities);
    expect(after.endpoints).toBe(before.endpoints);
    expect(after.meta[ep.key()]!.error).toEqual(expect.objectContaining({ code: ErrorCode.INVALID_SCHEMA }));
  });
});

test('ErrorCode values are their own names (stable string codes)', () => {
  for (const [name, code] of Object.entries(ErrorCode)) expect(code).toBe(name);
  expect(ErrorCode.MISSING_PK).toBe('MISSING_PK');
});

describe('nothing is dispatched when normalizing fails', () => {
  test('cache.set dispatches no action; setResponse dispatches one action with only the error record', () => {
    const { cache, store, actions } = makeRecordingStore();
    const ep = endpoint('GET /post', Post);
    expect(() => store.dispatch(cache.set(Post, { title: 'no id' }))).toThrow(LensCacheError);
    expect(actions).toHaveLength(0);
    store.dispatch(cache.setResponse(ep, { title: 'no id' }));
    expect(actions).toHaveLength(1);
    const paths = actions[0]!.payload.patches.map(patch => patch.path[0]);
    expect(paths.every(first => first === 'meta')).toBe(true);
  });
});

describe('MISSING_PK in every build', () => {
  const env = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = env;
  });

  test('a production build throws MISSING_PK too, and writes nothing', () => {
    process.env.NODE_ENV = 'production';
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const lib = require('../../src/index') as typeof import('../../src/index');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { configureStore } = require('@reduxjs/toolkit') as typeof import('@reduxjs/toolkit');
      class Thing extends lib.Entity {
        id = '';
        static override key = 'ProdThing';
      }
      const cache = lib.createCache();
      const store = configureStore({
        reducer: { cache: cache.reducer },
        middleware: getDefault => getDefault().concat(cache.middleware),
      });
      // Guard: this really is a production build.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      expect((require('../../src/base/env') as typeof import('../../src/base/env')).isDevelopment()).toBe(false);
      store.dispatch(cache.set(Thing, { id: 'ok' }));
      const before = store.getState().cache;
      let error: unknown;
      try {
        store.dispatch(cache.set(Thing, { id: '' }));
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(lib.LensCacheError);
      expect((error as InstanceType<typeof lib.LensCacheError>).code).toBe('MISSING_PK');
      expect(store.getState().cache).toBe(before);
    });
  });
});

/**
 * Errors and warnings of a production build (docs/errors.md, "Production messages"): the library
 * is loaded afresh with NODE_ENV=production. An error keeps its class, name, code and status, and
 * its message is the code, a short detail and the docs link, without the development prose; a
 * failed write still leaves the store as it was, and warnings stay silent.
 */
import type { configureStore as ConfigureStore } from '@reduxjs/toolkit';
import { startServer, type TestServer } from '../fixtures/server';

type Lib = typeof import('../../src/index');

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const env = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = env;
  jest.restoreAllMocks();
});

/** The library and Redux Toolkit as a production build loads them. */
async function production<T>(run: (lib: Lib, configureStore: typeof ConfigureStore) => T | Promise<T>): Promise<T> {
  process.env.NODE_ENV = 'production';
  let result!: T;
  await jest.isolateModulesAsync(async () => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const lib = require('../../src/index') as Lib;
    const { configureStore } = require('@reduxjs/toolkit') as { configureStore: typeof ConfigureStore };
    // Guard: this really is a production build.
    expect((require('../../src/base/env') as typeof import('../../src/base/env')).isDevelopment()).toBe(false);
    /* eslint-enable @typescript-eslint/no-require-imports */
    result = await run(lib, configureStore);
  });
  return result;
}

function storeOf(lib: Lib, configureStore: typeof ConfigureStore) {
  const cache = lib.createCache();
  const store = configureStore({
    reducer: { cache: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middleware),
  });
  return { cache, store };
}

const LINK = 'See node_modules/lenscache/docs/errors.md#';

/** `cache.fetch` for endpoints its types refuse (the mistakes under test). */
const anyFetch = (cache: { fetch: unknown }) => cache.fetch as (endpoint: unknown) => never;

test('a normalize error keeps its class, code and status; the message is the code, the entity key and the link', async () => {
  await production((lib, configureStore) => {
    class Member extends lib.Entity {
      id = '';
      static override key = 'ProdMember';
    }
    const { cache, store } = storeOf(lib, configureStore);
    store.dispatch(cache.set(Member, { id: 'a' }));
    const before = store.getState().cache;
    let error: unknown;
    try {
      store.dispatch(cache.set(Member, { name: 'no id' }));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(lib.LensCacheError);
    const { name, code, status, message } = error as InstanceType<Lib['LensCacheError']>;
    expect({ name, code, status }).toEqual({ name: 'LensCacheError', code: 'MISSING_PK', status: 400 });
    expect(message).toBe(`MISSING_PK [ProdMember]. ${LINK}missing_pk (a development build gives the full message)`);
    // The failed write changed nothing.
    expect(store.getState().cache).toBe(before);
  });
});

test('a set-up error without a cheap detail says the code and the link', async () => {
  await production(lib => {
    let error: unknown;
    try {
      new lib.Query(lib.Entity, 'not a function' as never);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(lib.LensCacheError);
    expect((error as Error).message).toBe(
      `INVALID_SCHEMA. ${LINK}invalid_schema (a development build gives the full message)`,
    );
  });
});

test('two caches at one reducerPath with both middlewares in one store are refused, with the path as detail', async () => {
  await production((lib, configureStore) => {
    const first = lib.createCache();
    const second = lib.createCache();
    let error: unknown;
    try {
      configureStore({
        reducer: { cache: first.reducer, other: second.reducer },
        middleware: getDefault => getDefault().concat(first.middleware, second.middleware),
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(lib.LensCacheError);
    expect((error as Error).message).toBe(
      `DUPLICATE_REDUCER_PATH [cache]. ${LINK}duplicate_reducer_path (a development build gives the full message)`,
    );
    // One cache's middleware in two stores, or in one store twice, is no conflict.
    const cache = lib.createCache();
    for (let i = 0; i < 2; i++) {
      configureStore({
        reducer: { cache: cache.reducer },
        middleware: getDefault => getDefault().concat(cache.middleware, cache.middleware),
      });
    }
  });
});

test('a method or endpoint option that needs a missing feature says the code and the feature', async () => {
  await production((lib, configureStore) => {
    const cache = lib.createLeanCache();
    const store = configureStore({
      reducer: { cache: cache.reducer },
      middleware: getDefault => getDefault().concat(cache.middleware),
    });
    const message = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as Error).message;
      }
    };
    const missing = (feature: string) =>
      `FEATURE_MISSING [${feature}]. ${LINK}feature_missing (a development build gives the full message)`;
    expect(message(() => cache.gc(store))).toBe(missing('garbageCollection'));
    expect(message(() => cache.setupListeners(store))).toBe(missing('liveData'));
    const retrying = new lib.RestEndpoint({ path: '/prod/retry', urlPrefix: server.origin, retry: { attempts: 1 } });
    expect(message(() => store.dispatch(cache.fetch(retrying)))).toBe(missing('retries'));
  });
});

test("an endpoint's bad option is INVALID_SCHEMA, a bad listener option INVALID_OPTION, with the code and the link", async () => {
  await production((lib, configureStore) => {
    const code = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as Error).message;
      }
    };
    const schema = `INVALID_SCHEMA. ${LINK}invalid_schema (a development build gives the full message)`;
    for (const options of [
      { method: 'GO' },
      { dataExpiryLength: -1 },
      { invalidIfStale: 'yes' },
      { paginationField: '' },
      { pollFrequency: 0 },
      { timeout: 0 },
    ])
      expect(code(() => new lib.RestEndpoint({ path: '/x', ...options } as never))).toBe(schema);
    const { cache, store } = storeOf(lib, configureStore);
    expect(code(() => store.dispatch(anyFetch(cache)({ key: () => 'k', fetch: async () => 1, sideEffect: 1 })))).toBe(
      schema,
    );
    expect(code(() => cache.setupListeners(store, { refetchOnFocus: 'no' as never }))).toBe(
      `INVALID_OPTION. ${LINK}invalid_option (a development build gives the full message)`,
    );
  });
});

test('a development build names the option and the endpoint', () => {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const lib = require('../../src/index') as Lib;
  const { configureStore } = require('@reduxjs/toolkit') as { configureStore: typeof ConfigureStore };
  /* eslint-enable @typescript-eslint/no-require-imports */
  expect(() => new lib.RestEndpoint({ path: '/x', method: 'GO' as never })).toThrow(/method of \/x must be/);
  expect(() => new lib.RestEndpoint({ path: '/x', dataExpiryLength: -1 })).toThrow(/dataExpiryLength of GET \/x must/);
  expect(() => new lib.RestEndpoint({ path: '/x', paginationField: '' })).toThrow(/paginationField of GET \/x must/);
  expect(() => new lib.RestEndpoint({ path: '/x', invalidIfStale: 1 as never })).toThrow(
    /invalidIfStale of GET \/x must/,
  );
  const message = (options: object) => {
    try {
      new lib.RestEndpoint({ path: '/x', ...options });
    } catch (error) {
      return (error as Error).message.split('\n').slice(0, 2);
    }
  };
  expect(message({ errorExpiryLength: 'soon' })).toEqual([
    'errorExpiryLength of GET /x must be a number of milliseconds (0 or more, or Infinity), but it is string "soon".',
    'Set errorExpiryLength to how long a stored answer stays valid, e.g. 60_000, or Infinity for never; or leave it out.',
  ]);
  expect(message({ method: 'POST', getOptimisticResponse: 1 })?.[0]).toBe(
    'getOptimisticResponse of POST /x must be a function (snap, ...args) => value, but it is number 1.',
  );
  expect(message({ retry: { attempts: -1 } })?.[0]).toBe(
    'retry of GET /x must be { attempts, delay? } with a whole, finite number of attempts (0 or more) and delay(attempt) a function, but it is object {attempts} (attempts: number -1, delay: undefined).',
  );
  expect(message({ retry: null })?.[0]).toMatch(/but it is null \(attempts: undefined, delay: undefined\)/);
  expect(message({ timeout: 0 })?.[0]).toBe(
    'timeout of GET /x must be a number of milliseconds above 0 (or Infinity), but it is number 0.',
  );
  expect(message({ invalidIfStale: 'no' })?.[1]).toBe('Write invalidIfStale: true, or leave it out (false).');
  const { cache, store } = storeOf(lib, configureStore);
  expect(() => cache.setupListeners(store, { refetchOnFocus: 1 as never })).toThrow(
    /refetchOnFocus of setupListeners must/,
  );
});

/** Mistakes whose messages name the option or the call in development; `run` gets a fresh library. */
async function labelledMistakes(lib: Lib, configureStore: typeof ConfigureStore) {
  const { cache, store } = storeOf(lib, configureStore);
  const endpoint = new lib.RestEndpoint({ path: '/prod/labels', urlPrefix: server.origin });
  const caught = async (run: () => unknown) => {
    try {
      await run();
    } catch (error) {
      return error as InstanceType<Lib['LensCacheError']>;
    }
    throw new Error('nothing thrown');
  };
  const before = store.getState().cache;
  const errors = {
    stamp: await caught(() => store.dispatch(cache.resolve(endpoint, { args: [], response: 1, fetchedAt: NaN }))),
    start: await caught(() =>
      store.dispatch(cache.resolve(endpoint, { args: [], response: 1, fetchedAt: 1, start: 'x' as never })),
    ),
    guess: await caught(() =>
      store.dispatch(
        anyFetch(cache)(
          new lib.RestEndpoint({ path: '/prod/labels', method: 'POST', getOptimisticResponse: async () => 1 }),
        ),
      ),
    ),
    source: await caught(() => cache.setupListeners(store, { onFocus: 'focus' as never })),
    stops: await caught(() => cache.setupListeners(store, { onOnline: () => 'no stop' as never })),
    option: await caught(() => lib.createCache({ gcTime: -1 })),
    params: await caught(() => endpoint.url('1' as never)),
  };
  expect(store.getState().cache).toBe(before);
  return errors;
}

test('options named only in development messages: the codes are the same in production', async () => {
  const codes = await production(async (lib, configureStore) => {
    const errors = await labelledMistakes(lib, configureStore);
    for (const error of Object.values(errors))
      expect(error.message).toBe(
        `${error.code}. ${LINK}${error.code.toLowerCase()} (a development build gives the full message)`,
      );
    return Object.fromEntries(Object.entries(errors).map(([what, error]) => [what, error.code]));
  });
  expect(codes).toEqual({
    stamp: 'INVALID_OPTION',
    start: 'INVALID_OPTION',
    guess: 'INVALID_OPTION',
    source: 'INVALID_OPTION',
    stops: 'INVALID_OPTION',
    option: 'INVALID_OPTION',
    params: 'UNEXPECTED_INPUT',
  });
});

test('a development build names the option or the call', async () => {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const lib = require('../../src/index') as Lib;
  const { configureStore } = require('@reduxjs/toolkit') as { configureStore: typeof ConfigureStore };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const errors = await labelledMistakes(lib, configureStore);
  expect(errors.stamp.message).toMatch(/given fetchedAt: number NaN/);
  expect(errors.start.message).toMatch(/given start: string "x"/);
  expect(errors.guess.message).toMatch(/^getOptimisticResponse of .* returned a promise/);
  expect(errors.source.message).toMatch(/setupListeners' onFocus must be a function/);
  expect(errors.stops.message).toMatch(/setupListeners' onOnline returned string "no stop"/);
  expect(errors.option.message).toMatch(/^createCache\(\{ gcTime \}\) takes/);
  expect(errors.params.message).toMatch(/endpoint "\/prod\/labels" must be its params object/);
});

/** A page endpoint whose page param is a path param, and a page request without its page param. */
function pageMistakes(lib: Lib) {
  class Item extends lib.Entity {
    id = '';
    static override key = 'PageItem';
  }
  const caught = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error as InstanceType<Lib['LensCacheError']>;
    }
    throw new Error('nothing thrown');
  };
  const schema = new lib.Collection([Item]);
  const inPath = new lib.RestEndpoint({ path: '/items/:cursor', paginationField: 'cursor', schema });
  const list = new lib.RestEndpoint({ path: '/items', paginationField: 'cursor', schema });
  return {
    inPath: caught(() => inPath.getPage),
    noParam: caught(() => list.getPage.url({} as never)),
  };
}

test("getPage's mistakes keep their codes in production; development names the endpoint", async () => {
  const codes = await production(lib => {
    const errors = pageMistakes(lib);
    for (const error of Object.values(errors))
      expect(error.message).toBe(
        `${error.code}. ${LINK}${error.code.toLowerCase()} (a development build gives the full message)`,
      );
    return Object.values(errors).map(error => error.code);
  });
  process.env.NODE_ENV = env;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const errors = pageMistakes(require('../../src/index') as Lib);
  expect(Object.values(errors).map(error => error.code)).toEqual(codes);
  expect(errors.inPath.message).toMatch(/^The paginationField "cursor" of GET \/items\/:cursor is a path param/);
  expect(errors.noParam.message).toMatch(/^GET \/items\.getPage needs the page param "cursor"/);
});

test('a development build gives the full message for the same mistake', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lib = require('../../src/index') as Lib;
  expect(() => new lib.Query(lib.Entity, 'not a function' as never)).toThrow(/needs a process function/);
});

test('a NetworkError keeps its status, the request and the link; the stored error keeps code and status', async () => {
  server.on('GET /prod/missing', () => ({ status: 404, json: { message: 'nothing here' } }));
  await production(async (lib, configureStore) => {
    const { cache, store } = storeOf(lib, configureStore);
    const endpoint = new lib.RestEndpoint({ path: '/prod/missing', urlPrefix: server.origin });
    const error = await store.dispatch(cache.fetch(endpoint)).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(lib.NetworkError);
    const { name, code, status, message } = error as InstanceType<Lib['NetworkError']>;
    expect({ name, code, status }).toEqual({ name: 'NetworkError', code: 'NETWORK_ERROR', status: 404 });
    expect(message).toBe(
      `NETWORK_ERROR [GET ${server.origin}/prod/missing 404 Not Found]. ${LINK}network_error (a development build gives the full message)`,
    );
    expect(cache.selectResponse(store.getState(), endpoint).error).toMatchObject({
      code: 'NETWORK_ERROR',
      status: 404,
    });
  });
});

test('a 2xx body that is not JSON is INVALID_RESPONSE with status 400, the request and its status as detail', async () => {
  server.on('GET /prod/broken', () => ({ raw: '{"cut', contentType: 'application/json' }));
  await production(async (lib, configureStore) => {
    const { cache, store } = storeOf(lib, configureStore);
    const endpoint = new lib.RestEndpoint({ path: '/prod/broken', urlPrefix: server.origin });
    const error = await store.dispatch(cache.fetch(endpoint)).then(
      () => undefined,
      (caught: unknown) => caught as InstanceType<Lib['NetworkError']>,
    );
    expect(error).toBeInstanceOf(lib.NetworkError);
    expect({ code: error?.code, status: error?.status, body: error?.body }).toEqual({
      code: 'INVALID_RESPONSE',
      status: 400,
      body: '{"cut',
    });
    expect(error?.message).toBe(
      `INVALID_RESPONSE [GET ${server.origin}/prod/broken 200]. ${LINK}invalid_response (a development build gives the full message)`,
    );
  });
});

test('warnings stay silent', async () => {
  await production((lib, configureStore) => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    class Cat extends lib.Entity {
      id = '';
      static override key = 'ProdCat';
    }
    const { cache, store } = storeOf(lib, configureStore);
    // An unknown polymorphic type warns in development and is kept raw.
    store.dispatch(cache.set(new lib.Union({ cats: Cat }, 'type'), { id: '1', type: 'dogs' }));
    // A table named after its class warns in development.
    class Keyless extends lib.Entity {
      id = '';
    }
    store.dispatch(cache.set(Keyless, { id: 'k1' }));
    expect(Object.keys(store.getState().cache.entities)).toContain('Keyless');
    expect(warn).not.toHaveBeenCalled();
  });
});

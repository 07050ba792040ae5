/**
 * The state is JSON at all times: numbers JSON cannot hold (NaN, ±Infinity) are refused with a
 * coded error and the store unchanged, rather than stored and read back as `null` after a round
 * trip; `-0` is stored as the `0` a round trip gives.
 */
import { Entity, ErrorCode, Scalar, type CacheState } from '../../src/index';
import { jsonProblems } from '../fixtures/recording';
import { makeStore } from '../fixtures/store';
import { endpoint, expectRejected } from '../fixtures/writes';

class Reading extends Entity {
  id = '';
  value = 0;
  series: number[] = [];
  extra: Record<string, unknown> = {};
  share = 0;
  static override key = 'Reading';
}
const Share = new Scalar({
  lens: args => (args[0] as { lens?: string } | undefined)?.lens,
  key: 'share',
  entity: Reading,
});
Reading.schema = { share: Share };

const slice = (state: unknown) => (state as { cache: CacheState }).cache;

describe.each([NaN, Infinity, -Infinity])('the number %p', bad => {
  test('as a field: rejected, the store unchanged', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Reading, { lens: 'a' }, { id: '0', value: 1 }));
    const error = expectRejected(
      store,
      () => store.dispatch(cache.set(Reading, { lens: 'a' }, { id: '1', value: bad })),
      ErrorCode.UNEXPECTED_INPUT,
    );
    expect(error.message).toContain(`${String(bad)}, which JSON cannot hold`);
  });

  test('nested in a raw array or object: rejected, the store unchanged', () => {
    const { cache, store } = makeStore();
    expectRejected(
      store,
      () => store.dispatch(cache.set(Reading, { lens: 'a' }, { id: '1', series: [1, bad] })),
      ErrorCode.UNEXPECTED_INPUT,
    );
    const error = expectRejected(
      store,
      () => store.dispatch(cache.set(Reading, { lens: 'a' }, { id: '1', extra: { deep: { x: bad } } })),
      ErrorCode.UNEXPECTED_INPUT,
    );
    expect(error.message).toContain('Reading "1".extra.deep.x');
  });

  test('in a Scalar cell: rejected, the store unchanged', () => {
    const { cache, store } = makeStore();
    expectRejected(
      store,
      () => store.dispatch(cache.set(Reading, { lens: 'a' }, { id: '1', share: bad })),
      ErrorCode.UNEXPECTED_INPUT,
    );
  });

  test('in a schema-less response: only the error record is stored', () => {
    const { cache, store } = makeStore();
    const raw = endpoint('raw', undefined);
    store.dispatch(cache.setResponse(raw, {}, { total: bad }));
    const state = slice(store.getState());
    expect(state.endpoints[raw.key({})]).toBeUndefined();
    expect(state.meta[raw.key({})]?.error?.code).toBe(ErrorCode.UNEXPECTED_INPUT);
    expect(jsonProblems(state)).toEqual([]);
  });

  test('as a pk: rejected as MISSING_PK', () => {
    const { cache, store } = makeStore();
    expectRejected(
      store,
      () => store.dispatch(cache.set(Reading, { lens: 'a' }, { id: bad, value: 1 })),
      ErrorCode.MISSING_PK,
    );
  });
});

test('-0 is stored as 0, what JSON gives back', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Reading, { lens: 'a' }, { id: '1', value: -0, series: [-0] }));
  const row = slice(store.getState()).entities.Reading!['1'] as { value: number; series: number[] };
  expect(Object.is(row.value, 0)).toBe(true);
  expect(Object.is(row.series[0], 0)).toBe(true);
});

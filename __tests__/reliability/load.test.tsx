/**
 * @jest-environment jsdom
 */
/**
 * Load: 100,000 entities in the store and 1,000 mounted useQuery subscribers, under a real
 * configureStore with RTK's default middleware. A single-entity update renders only the component
 * that reads it; unrelated dispatches render none. Counts, not timings: the figures are in
 * docs/reliability.md (scripts/load.mjs).
 */
import { configureStore } from '@reduxjs/toolkit';
import { act, render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { Collection, createCache, Entity } from '../../src/index';
import { CacheProvider, useQuery } from '../../src/react/index';

class Row extends Entity {
  id = '';
  label = '';
  value = 0;
  static override key = 'Row';
}

const ENTITIES = 100_000;
const SUBSCRIBERS = 1_000;

test('100,000 entities, 1,000 subscribers: one update renders one component', () => {
  const cache = createCache();
  const store = configureStore({
    reducer: {
      [cache.reducerPath]: cache.reducer,
      other: (state: number = 0, action: { type: string }) => (action.type === 'bump' ? state + 1 : state),
    },
    // RTK's development checks walk the whole state on every action; at this size they only warn
    // about their own time, so they are left out of this test (scripts/dev-checks.mjs measures them).
    middleware: getDefault => getDefault({ immutableCheck: false, serializableCheck: false }).concat(cache.middleware),
  });
  const all = new Collection([Row], { argsKey: () => ({}) });
  const rows = Array.from({ length: ENTITIES }, (_, i) => ({ id: String(i), label: `row ${i}`, value: i }));
  store.dispatch(cache.setResponse({ key: () => 'GET /rows', schema: all }, rows));

  const renders = new Array<number>(SUBSCRIBERS).fill(0);
  function Cell({ id }: { id: number }) {
    renders[id]!++;
    const row = useQuery(Row, String(id));
    return <span>{row?.value}</span>;
  }
  render(
    <Provider store={store}>
      <CacheProvider cache={cache}>
        {Array.from({ length: SUBSCRIBERS }, (_, id) => (
          <Cell key={id} id={id} />
        ))}
      </CacheProvider>
    </Provider>,
  );
  expect(renders.every(count => count === 1)).toBe(true);

  // One entity a subscriber reads.
  act(() => store.dispatch(cache.set(Row, { id: '5', label: 'row 5', value: -5 })));
  expect(renders[5]).toBe(2);
  expect(renders.reduce((sum, count) => sum + count, 0)).toBe(SUBSCRIBERS + 1);

  // An entity nobody reads, an identical write, another slice's action: nothing renders.
  act(() => store.dispatch(cache.set(Row, { id: '50000', label: 'row 50000', value: 0 })));
  act(() => store.dispatch(cache.set(Row, { id: '7', label: 'row 7', value: 7 })));
  act(() => void store.dispatch({ type: 'bump' }));
  expect(renders.reduce((sum, count) => sum + count, 0)).toBe(SUBSCRIBERS + 1);
  expect(Object.keys((store.getState().cache as unknown as { entities: { Row: object } }).entities.Row)).toHaveLength(
    ENTITIES,
  );
}, 60_000);

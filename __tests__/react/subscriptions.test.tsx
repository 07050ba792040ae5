/**
 * @jest-environment jsdom
 */
/** Mounted hooks register what they read with the store's runtime, and release it on unmount. */
import { act } from '@testing-library/react';
import { Entity, Query } from '../../src/index';
import { useCache, useQuery } from '../../src/react/index';
import { renderWithCache } from '../fixtures/render';
import { makeStore } from '../fixtures/store';
import { runtimeOf } from '../fixtures/runtime';

class Item extends Entity {
  id = '';
  static override key = 'Item';
}
const count = new Query([Item], items => items.length);
const getItem = { key: (params: { id: string }) => `GET /items/${params.id}`, schema: Item };

function Reader({ id }: { id: string | null }) {
  useCache(getItem, id === null ? null : { id });
  useQuery(count, id === null ? null : { id });
  return null;
}

test('each mounted reader holds its request key and Query read; unmounting and skipping release them', () => {
  const setup = makeStore();
  const { subscriptions } = runtimeOf(setup.cache, setup.store);
  const view = renderWithCache(
    <>
      <Reader id="1" />
      <Reader id="1" />
      <Reader id="2" />
    </>,
    { setup },
  );
  expect(subscriptions.count('request', 'GET /items/1')).toBe(2);
  expect(subscriptions.count('request', 'GET /items/2')).toBe(1);
  expect(subscriptions.held('query')).toHaveLength(2);
  expect(subscriptions.held('request').find(([key]) => key === 'GET /items/2')?.[1]).toEqual({
    target: getItem,
    args: [{ id: '2' }],
  });
  act(() => view.rerender(<Reader id={null} />));
  expect(subscriptions.held('request')).toEqual([]);
  expect(subscriptions.held('query')).toEqual([]);
  act(() => view.rerender(<Reader id="3" />));
  expect(subscriptions.count('request', 'GET /items/3')).toBe(1);
  view.unmount();
  expect(subscriptions.held('request')).toEqual([]);
  expect(subscriptions.held('query')).toEqual([]);
});

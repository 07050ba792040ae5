/** setupListeners outside a browser: Node has no window, so nothing is listened to or refetched. */
import { Entity } from '../../src/index';
import { makeStore } from '../fixtures/store';
import { runtimeOf } from '../fixtures/runtime';

class Item extends Entity {
  id = '';
  static override key = 'Item';
}

test('setupListeners in Node does nothing and its remove() is safe to call', () => {
  expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
  const { cache, store } = makeStore();
  const fetch = jest.fn(async () => ({ id: '1' }));
  const getItem = { key: () => 'GET /item', schema: Item, fetch };
  const release = runtimeOf(cache, store).subscriptions.retain('request', 'GET /item', {
    target: getItem,
    args: [],
  });
  const remove = cache.setupListeners(store, { refetchOnFocus: true, refetchOnReconnect: true });
  remove();
  remove();
  expect(fetch).not.toHaveBeenCalled();
  release();
});

import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, Invalidate, Values } from 'lenscache';

export class Status extends Entity {
  id = '';
  text = '';
  static override key = 'Status';
}
// Items that carry no id: the map key is the pk.
export class Setting extends Entity {
  value = '';
  static override key = 'Setting';
  static override pk(value: object, parent?: unknown, key?: string) {
    return key;
  }
}

export const getStatuses = { key: () => 'GET /statuses', schema: new Values(Status) };
export const getSettings = { key: () => 'GET /settings', schema: new Values(Setting) };

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function run() {
  store.dispatch(
    cache.setResponse(getStatuses, {
      api: { id: 's1', text: 'up' },
      db: { id: 's2', text: 'down' },
      cdn: null, // skipped
    }),
  );
  store.dispatch(cache.setResponse(getSettings, { theme: { value: 'dark' }, locale: { value: 'fr' } }));
  store.dispatch(cache.set(new Invalidate(Status), 's2')); // a deleted member drops out, key and all

  const state = store.getState();
  const statuses = cache.selectResponse(state, getStatuses).data; // Record<string, Status> | undefined
  return {
    statusKeys: Object.keys(statuses ?? {}), // ['api']
    api: statuses?.api?.text, // 'up'
    theme: cache.selectResponse(state, getSettings).data?.theme?.value, // 'dark'
    locale: cache.selectQuery(state, Setting, 'locale')?.value, // 'fr': stored at its map key
    // Values has no key of its own to read by: only a stored response reads it.
    withoutResponse: cache.selectQuery(state, getStatuses.schema), // undefined
  };
}

import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, RestEndpoint } from 'lenscache';

export class Message extends Entity {
  id = '';
  text = '';
  static override key = 'Message';
}

// GET /rooms/:room/messages?cursor=… answers { results, nextCursor, previousCursor }: the list
// opens at the latest messages; previousCursor names the page before, nextCursor the one after.
export const getMessages = new RestEndpoint({
  path: '/rooms/:room/messages',
  searchParams: {} as { cursor?: string },
  schema: {
    results: new Collection([Message]),
    nextCursor: null as string | null,
    previousCursor: null as string | null,
  },
  paginationField: 'cursor',
  // The list holds three pages at most: a page loaded at one end drops the page at the other.
  maxPages: 3,
});

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});
const room = { room: 'lobby' };
const ids = () => cache.selectResponse(store.getState(), getMessages, room).data?.results.map(message => message.id);
const page = (from: number) => ({
  results: [{ id: String(from), text: `#${from}` }, { id: String(from + 1), text: `#${from + 1}` }],
  nextCursor: String(from + 2),
  previousCursor: String(from - 2),
});

export function run() {
  store.dispatch(cache.setResponse(getMessages, room, page(20)));
  // The list's previous param is '18': the page it names goes before the pages held.
  store.dispatch(cache.setResponse(getMessages.getPage, { ...room, cursor: '18' }, page(18)));
  const before = ids(); // ['18', '19', '20', '21']
  store.dispatch(cache.setResponse(getMessages.getPage, { ...room, cursor: '22' }, page(22)));
  // A fourth page: the first one held (18) goes, with its messages.
  store.dispatch(cache.setResponse(getMessages.getPage, { ...room, cursor: '24' }, page(24)));
  const bounded = ids(); // ['20', '21', '22', '23', '24', '25']
  // Back to 18 (the page the list now names before its first): the last page held (24) goes.
  store.dispatch(cache.setResponse(getMessages.getPage, { ...room, cursor: '18' }, page(18)));
  // cache.fetch(getMessages, room) would fetch the three pages held again, in this order;
  // cache.fetch(firstPageOnly(getMessages), room) fetches the list's own first page alone.
  return { before, bounded, back: ids() /* ['18', '19', '20', '21', '22', '23'] */ };
}

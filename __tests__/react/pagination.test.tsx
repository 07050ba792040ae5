/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * Pagination with the hooks (docs/pagination.md): a list read by useSuspense grows when a page
 * is fetched, without suspending again, and the page's next cursor reads through useCache; a
 * refetch on focus keeps every page on screen.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { Collection, Entity, RestEndpoint } from '../../src/index';
import { useCache, useController, useSuspense } from '../../src/react/index';
import { mountReader, quietErrors, renderWithCache } from '../fixtures/render';
import { startServer, type TestServer } from '../fixtures/server';

class Row extends Entity {
  id = '';
  name = '';
  static override key = 'PagedRow';
}

const rows = Array.from({ length: 5 }, (_, i) => ({ id: String(i + 1), name: `Row ${i + 1}` }));
let server: TestServer;
let getRows: RestEndpoint<{
  path: '/rows';
  urlPrefix: string;
  searchParams: { cursor?: string };
  schema: { results: Collection<readonly [typeof Row]>; nextCursor: string | null };
  paginationField: 'cursor';
}>;

beforeAll(async () => {
  server = await startServer();
  server.on('GET /rows', (_request, url) => {
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const next = start + 2 < rows.length ? String(start + 2) : null;
    return { json: { results: rows.slice(start, start + 2), nextCursor: next } };
  });
  getRows = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/rows',
    searchParams: {} as { cursor?: string },
    schema: { results: new Collection([Row]), nextCursor: null as string | null },
    paginationField: 'cursor',
  });
});
afterAll(() => server.close());

test('"Load more" appends each page to the list useSuspense reads, without a second suspense', async () => {
  let fallbacks = 0;
  function Fallback() {
    fallbacks++;
    return <p>loading</p>;
  }
  function List() {
    const controller = useController();
    const first = useSuspense(getRows);
    const [cursors, setCursors] = useState<string[]>([]);
    const lastPage = useCache(getRows.getPage, cursors.length ? { cursor: cursors[cursors.length - 1]! } : null);
    const next = cursors.length ? lastPage?.nextCursor : first.nextCursor;
    const more = async () => {
      await controller.fetch(getRows.getPage, { cursor: next! });
      setCursors(list => [...list, next!]);
    };
    return (
      <>
        <ul>
          {first.results.map(row => (
            <li key={row.id}>{row.name}</li>
          ))}
        </ul>
        {next ? <button onClick={more}>more</button> : <p>all loaded</p>}
      </>
    );
  }
  const { store, cache } = renderWithCache(
    <Suspense fallback={<Fallback />}>
      <List />
    </Suspense>,
  );
  await screen.findByText('Row 2');
  const names = () => screen.getAllByRole('listitem').map(item => item.textContent);
  expect(names()).toEqual(['Row 1', 'Row 2']);
  const suspended = fallbacks;

  await act(async () => fireEvent.click(screen.getByText('more')));
  await waitFor(() => expect(names()).toEqual(['Row 1', 'Row 2', 'Row 3', 'Row 4']));
  await act(async () => fireEvent.click(screen.getByText('more')));
  await waitFor(() => expect(screen.getByText('all loaded')).toBeTruthy());
  expect(names()).toEqual(['Row 1', 'Row 2', 'Row 3', 'Row 4', 'Row 5']);
  // The list stayed on screen while the pages loaded.
  expect(fallbacks).toBe(suspended);
  expect(server.count('GET /rows')).toBe(3);
  expect(cache.selectResponse(store.getState(), getRows).expiryStatus).toBe('valid');

  // Back to the window with the data stale: the list is refetched with every page it holds, and
  // stays whole on screen (it never drops back to its first page).
  const remove = cache.setupListeners(store);
  const sent = server.requests.length;
  await act(async () => void store.dispatch(cache.expireAll()));
  await act(async () => void window.dispatchEvent(new Event('focus')));
  await waitFor(() => expect(cache.selectResponse(store.getState(), getRows).expiryStatus).toBe('valid'));
  expect(server.requests.slice(sent).map(request => request.url)).toEqual(
    expect.arrayContaining(['/rows', '/rows?cursor=2', '/rows?cursor=4']),
  );
  expect(names()).toEqual(['Row 1', 'Row 2', 'Row 3', 'Row 4', 'Row 5']);
  expect(fallbacks).toBe(suspended);
  remove();
});

test('a wrapped page whose first load fails throws its error to the boundary, never a value built from nothing', async () => {
  class Product extends Entity {
    id = '';
    name = '';
    static override key = 'PagedProduct';
  }
  server.on('GET /products', () => ({ status: 503, json: { message: 'down for maintenance' } }));
  const getProducts = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/products',
    searchParams: {} as { cursor?: string },
    schema: { results: new Collection([Product]), nextCursor: '', total: 0 },
    paginationField: 'cursor',
  });
  const shown: unknown[] = [];
  const quiet = quietErrors();
  try {
    const { caught } = mountReader(() => {
      const page = useSuspense(getProducts);
      shown.push(page);
      return page.results.map(product => product.name);
    });
    await screen.findByRole('alert');
    expect(caught[0]).toMatchObject({ name: 'NetworkError', status: 503 });
    expect(shown).toEqual([]);
  } finally {
    quiet.mockRestore();
  }
});

/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * The Company portfolio demo (see docs/hooks.md, "The Company demo"), step by step: a real store, a
 * real local server, real components. Requests are counted at the server and commits with a
 * React Profiler; the rendered objects are compared by identity.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Profiler, Suspense, useState } from 'react';
import { RestEndpoint, type EndpointLike } from '../../src/index';
import { useFetch, useSuspense } from '../../src/react/index';
import { Company } from '../fixtures/company';
import { exampleEndpoints } from '../fixtures/endpoints';
import { fetchCalls, renderWithCache, settle } from '../fixtures/render';
import { startServer, type TestServer } from '../fixtures/server';

let server: TestServer;
let api: ReturnType<typeof exampleEndpoints>;

/** Each portfolio's values: A comes with the list, B and C with their columns. */
const values: Record<string, Record<string, { pct_equity: number; shares: number }>> = {
  A: { 1: { pct_equity: 0.5, shares: 32342 }, 2: { pct_equity: 0.2, shares: 100 } },
  B: { 1: { pct_equity: 0.9, shares: 7 }, 2: { pct_equity: 0.1, shares: 3 } },
  C: { 1: { pct_equity: 0.3, shares: 11 }, 2: { pct_equity: 0.7, shares: 22 } },
};
const rows = [
  { id: '1', name: 'Acme', price: 100, sector: { id: 's1', name: 'Tech' } },
  { id: '2', name: 'Globex', price: 50, sector: { id: 's1', name: 'Tech' } },
];

beforeAll(async () => {
  server = await startServer();
  api = exampleEndpoints(server.origin);
  server.on('GET /companies', (_request, url) => {
    const portfolio = url.searchParams.get('portfolio')!;
    return { json: rows.map(row => ({ ...row, ...values[portfolio]![row.id] })) };
  });
  server.on('GET /companies/columns', (_request, url) => ({ json: values[url.searchParams.get('portfolio')!] }));
});
afterAll(() => server.close());

interface Commit {
  portfolio: string;
  list: readonly Company[];
}

/** The demo: a portfolio picker over a table that reads the shared list and prefetches columns. */
function mountDemo(listEndpoint: EndpointLike & { sideEffect: false }, { strict = false } = {}) {
  const commits: Commit[] = [];
  let fallbacks = 0;
  let rendered: Commit | undefined;
  const columnRequests: Array<Promise<unknown> | undefined> = [];

  function CompanyTable({ portfolio }: { portfolio: string }) {
    const list = useSuspense(listEndpoint, { portfolio }) as Company[];
    columnRequests.push(useFetch(api.getColumns, portfolio === 'A' ? null : { portfolio }));
    rendered = { portfolio, list };
    return (
      <table>
        <tbody>
          {list.map(company => (
            <tr key={company.id}>
              <td>{company.name}</td>
              <td data-testid={`pct-${company.id}`}>{String(company.pct_equity)}</td>
              <td data-testid={`shares-${company.id}`}>{String(company.shares)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  function Fallback() {
    fallbacks++;
    return <p>loading</p>;
  }
  function Demo() {
    const [portfolio, setPortfolio] = useState('A');
    return (
      <>
        {['A', 'B', 'C'].map(name => (
          <button key={name} onClick={() => setPortfolio(name)}>
            {name}
          </button>
        ))}
        <Profiler id="table" onRender={() => rendered && commits.push(rendered)}>
          <Suspense fallback={<Fallback />}>
            <CompanyTable portfolio={portfolio} />
          </Suspense>
        </Profiler>
      </>
    );
  }
  // Requests are counted as they start (exact, however slow the server), from the first render on.
  const calls = fetchCalls();
  const result = renderWithCache(<Demo />, { strict });
  const cell = (column: string, id: string) => screen.getByTestId(`${column}-${id}`).textContent;
  const shown = () => ({
    pct: [cell('pct', '1'), cell('pct', '2')],
    shares: [cell('shares', '1'), cell('shares', '2')],
  });
  const requests = () => ({ list: calls.count('/companies?'), columns: calls.count('/companies/columns') });
  /** Clicks a portfolio and returns the commits it caused, once every request it started settled. */
  const pick = async (portfolio: string, arrived?: () => void) => {
    const before = commits.length;
    const requestsBefore = columnRequests.length;
    fireEvent.click(screen.getByText(portfolio, { selector: 'button' }));
    if (arrived) await waitFor(arrived);
    await act(() => Promise.all(columnRequests.slice(requestsBefore)));
    await settle();
    return commits.slice(before);
  };
  const unmount = () => {
    result.unmount();
    calls.restore();
  };
  return { ...result, unmount, commits, fallbacks: () => fallbacks, shown, requests, pick };
}

const expectedFor = (portfolio: string) => ({
  pct: [String(values[portfolio]![1]!.pct_equity), String(values[portfolio]![2]!.pct_equity)],
  shares: [String(values[portfolio]![1]!.shares), String(values[portfolio]![2]!.shares)],
});

describe.each([
  ['', false],
  [' (StrictMode)', true],
])('Company portfolio demo with Collection([Company], { argsKey: () => ({}) })%s', (_name, strict) => {
  test('first render fetches the list once; a new portfolio fetches only its columns, in 2 commits; a revisit fetches nothing, in 1', async () => {
    const demo = mountDemo(api.getCompanies, { strict });
    const fetched = demo.requests;

    // First render at A: suspends until the list lands, then shows A's values from the list.
    expect(screen.getByText('loading')).toBeTruthy();
    await screen.findByText('Acme');
    await settle();
    expect(fetched()).toEqual({ list: 1, columns: 0 });
    expect(demo.shown()).toEqual(expectedFor('A'));
    const lastA = demo.commits.at(-1)!;
    expect(lastA.portfolio).toBe('A');
    const fallbacksAfterA = demo.fallbacks();

    // A new portfolio B: no list fetch, one column fetch, no suspense, exactly 2 commits.
    const toB = await demo.pick('B', () => expect(demo.shown()).toEqual(expectedFor('B')));
    expect(fetched()).toEqual({ list: 1, columns: 1 });
    expect(demo.fallbacks()).toBe(fallbacksAfterA);
    expect(toB).toHaveLength(2);
    // The switch commit: the cached list at B, stable fields present, Scalar fields undefined.
    expect(toB[0]!.portfolio).toBe('B');
    expect(toB[0]!.list.map(c => [c.name, c.price, c.sector.name, c.pct_equity, c.shares])).toEqual([
      ['Acme', 100, 'Tech', undefined, undefined],
      ['Globex', 50, 'Tech', undefined, undefined],
    ]);
    // The arrival of the columns: B's values.
    expect(toB[1]!.list.map(c => [c.pct_equity, c.shares])).toEqual([
      [0.9, 7],
      [0.1, 3],
    ]);
    // The sector is one object under every lens.
    expect(toB[1]!.list[0]!.sector).toBe(lastA.list[0]!.sector);
    const lastB = toB[1]!;

    // Back to A: nothing fetched, exactly 1 commit, the very objects of the last A render.
    const backToA = await demo.pick('A');
    expect(fetched()).toEqual({ list: 1, columns: 1 });
    expect(backToA).toHaveLength(1);
    expect(backToA[0]!.list).toBe(lastA.list);
    backToA[0]!.list.forEach((company, i) => expect(company).toBe(lastA.list[i]));
    expect(demo.shown()).toEqual(expectedFor('A'));

    // B again: the column entry for B is fresh, so nothing is fetched; 1 commit, B's last objects.
    const backToB = await demo.pick('B');
    expect(fetched()).toEqual({ list: 1, columns: 1 });
    expect(backToB).toHaveLength(1);
    expect(backToB[0]!.list).toBe(lastB.list);
    expect(demo.shown()).toEqual(expectedFor('B'));

    // A third portfolio behaves like B did.
    const toC = await demo.pick('C', () => expect(demo.shown()).toEqual(expectedFor('C')));
    expect(fetched()).toEqual({ list: 1, columns: 2 });
    expect(toC).toHaveLength(2);
    expect(demo.fallbacks()).toBe(fallbacksAfterA);
    demo.unmount();
  });
});

test('with a bare [Company] list: each new portfolio refetches the list and suspends; revisits are served from their entries without suspense', async () => {
  const bare = new RestEndpoint({
    urlPrefix: server.origin,
    path: '/companies',
    searchParams: {} as { portfolio: string },
    schema: [Company],
  });
  const demo = mountDemo(bare);
  await screen.findByText('Acme');
  expect(demo.shown()).toEqual(expectedFor('A'));
  expect(demo.requests().list).toBe(1);

  const fallbacksAtA = demo.fallbacks();
  await demo.pick('B', () => expect(demo.shown()).toEqual(expectedFor('B')));
  // B had no list entry: it suspended and fetched the list (its columns are fetched too).
  expect(demo.requests().list).toBe(2);
  expect(demo.fallbacks()).toBeGreaterThan(fallbacksAtA);

  const fallbacksAtB = demo.fallbacks();
  const backToA = await demo.pick('A');
  expect(backToA).toHaveLength(1);
  expect(demo.shown()).toEqual(expectedFor('A'));
  await demo.pick('B');
  expect(demo.shown()).toEqual(expectedFor('B'));
  expect(demo.fallbacks()).toBe(fallbacksAtB);
  expect(demo.requests().list).toBe(2);
  expect(demo.requests().columns).toBe(1);
  demo.unmount();
});

/**
 * @jest-environment jsdom
 */
/**
 * useDebounce and useCancelling (docs/useDebounce.md): a search box that types fast sends one
 * request per settled query, and a request whose args changed is aborted.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { useCancelling, useDebounce, useSuspense } from '../../src/react/index';
import { Boundary, quietErrors, renderWithCache } from '../fixtures/render';
import { makeStore } from '../fixtures/store';

/** A search endpoint whose requests answer when the test says, and record their aborts. */
function search() {
  const sent: Array<{ query: string; signal: AbortSignal; answer(value: unknown): void }> = [];
  const endpoint = {
    key: (params: { query: string }) => `GET /search?q=${params.query}`,
    request: (args: readonly unknown[], signal?: AbortSignal) =>
      new Promise((resolve, reject) => {
        const { query } = args[0] as { query: string };
        signal?.addEventListener('abort', () => reject(signal.reason));
        sent.push({ query, signal: signal!, answer: resolve });
      }),
  };
  return { endpoint, sent };
}

test('useDebounce: the value follows once it stops changing, and says when a newer one waits', async () => {
  jest.useFakeTimers();
  try {
    const seen: string[] = [];
    function Box() {
      const [text, setText] = useState('');
      const [query, pending] = useDebounce(text, 300);
      seen.push(`${query}|${pending}`);
      return <input aria-label="q" value={text} onChange={event => setText(event.target.value)} />;
    }
    renderWithCache(<Box />);
    const input = screen.getByLabelText('q');
    fireEvent.change(input, { target: { value: 'l' } });
    act(() => void jest.advanceTimersByTime(100));
    fireEvent.change(input, { target: { value: 'le' } });
    act(() => void jest.advanceTimersByTime(100));
    fireEvent.change(input, { target: { value: 'len' } });
    expect(seen[seen.length - 1]).toBe('|true');
    act(() => void jest.advanceTimersByTime(299));
    expect(seen[seen.length - 1]).toBe('|true');
    act(() => void jest.advanceTimersByTime(1));
    expect(seen[seen.length - 1]).toBe('len|false');
    // Only the settled value was ever the debounced one.
    expect(new Set(seen.map(entry => entry.split('|')[0]))).toEqual(new Set(['', 'len']));
  } finally {
    jest.useRealTimers();
  }
});

test('useCancelling: new args abort the request the old ones sent; the new one is shown', async () => {
  const { endpoint, sent } = search();
  function Results({ query }: { query: string }) {
    const data = useSuspense(useCancelling(endpoint, { query }), { query }) as { hits: string };
    return <p>{data.hits}</p>;
  }
  function Page() {
    const [query, setQuery] = useState('a');
    return (
      <>
        <input aria-label="q" value={query} onChange={event => setQuery(event.target.value)} />
        <Suspense fallback={<p>searching</p>}>
          <Results query={query} />
        </Suspense>
      </>
    );
  }
  const { unmount } = renderWithCache(<Page />);
  await act(async () => undefined);
  await act(async () => sent[0]!.answer({ hits: 'results for a' }));
  await screen.findByText('results for a');
  const input = screen.getByLabelText('q');
  fireEvent.change(input, { target: { value: 'ab' } });
  await act(async () => undefined);
  await act(async () => {
    fireEvent.change(input, { target: { value: 'abc' } });
    await new Promise(resolve => setTimeout(resolve, 0));
  });
  expect(sent.map(request => request.query)).toEqual(['a', 'ab', 'abc']);
  // The request for 'ab' was aborted as the args changed; 'abc' runs.
  expect(sent[1]!.signal.aborted).toBe(true);
  expect(sent[2]!.signal.aborted).toBe(false);
  await act(async () => sent[2]!.answer({ hits: 'results for abc' }));
  await screen.findByText('results for abc');
  // Typing again, then leaving: the request in flight is aborted with the component.
  fireEvent.change(input, { target: { value: 'abcd' } });
  await act(async () => undefined);
  await act(async () => {
    unmount();
    await new Promise(resolve => setTimeout(resolve, 0));
  });
  expect(sent[3]!.signal.aborted).toBe(true);
});

test('useCancelling: a query the args moved past stores no error; going back to it fetches it and shows the answer', async () => {
  const { endpoint, sent } = search();
  function Results({ query }: { query: string }) {
    const data = useSuspense(useCancelling(endpoint, { query }), { query }) as { hits: string };
    return <p>{data.hits}</p>;
  }
  const caught: Error[] = [];
  const { rerender, cache, store } = renderWithCache(
    <Boundary caught={caught}>
      <Suspense fallback={<p>searching</p>}>
        <Results query="a" />
      </Suspense>
    </Boundary>,
  );
  const show = (query: string) =>
    rerender(
      <Boundary caught={caught}>
        <Suspense fallback={<p>searching</p>}>
          <Results query={query} />
        </Suspense>
      </Boundary>,
    );
  await act(async () => undefined);
  await act(async () => sent[0]!.answer({ hits: 'results for a' }));
  await screen.findByText('results for a');
  // Typed past 'ab' before it answered: its request is aborted.
  await act(async () => show('ab'));
  await act(async () => undefined);
  await act(async () => show('abc'));
  await act(async () => undefined);
  expect(sent.map(request => request.query)).toEqual(['a', 'ab', 'abc']);
  expect(sent[1]!.signal.aborted).toBe(true);
  expect(cache.selectResponse(store.getState(), endpoint, { query: 'ab' }).error).toBeUndefined();
  await act(async () => sent[2]!.answer({ hits: 'results for abc' }));
  await screen.findByText('results for abc');
  // Back to 'ab': fetched again, and its answer shown; no AbortError anywhere.
  await act(async () => show('ab'));
  await act(async () => undefined);
  expect(sent.map(request => request.query)).toEqual(['a', 'ab', 'abc', 'ab']);
  await act(async () => sent[3]!.answer({ hits: 'results for ab' }));
  await screen.findByText('results for ab');
  expect(caught).toEqual([]);
});

test('useCancelling returns an endpoint without request() as it is', () => {
  const plain = { key: () => 'GET /x', fetch: async () => 1 };
  let returned: unknown;
  function Probe() {
    returned = useCancelling(plain);
    return null;
  }
  renderWithCache(<Probe />);
  expect(returned).toBe(plain);
});

test('useDebounce refuses a delay that is not milliseconds from 0 up, or an updatable that is no flag: INVALID_OPTION at the boundary', () => {
  const quiet = quietErrors();
  try {
    for (const [delay, updatable] of [
      [NaN, true],
      [-1, true],
      ['300', true],
      [300, 'no'],
    ] as const) {
      const caught: Error[] = [];
      function Box() {
        const [value] = useDebounce('a', delay as number, updatable as boolean);
        return <p>{value}</p>;
      }
      const { unmount } = renderWithCache(
        <Boundary caught={caught}>
          <Box />
        </Boundary>,
      );
      expect(caught[0]).toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining('useDebounce') });
      unmount();
    }
  } finally {
    quiet.mockRestore();
  }
});

test("useCancelling passes the store's request options on with the request", async () => {
  const contexts: Array<{ baseUrl?: string; endpoint?: unknown } | undefined> = [];
  const endpoint = {
    key: (params: { query: string }) => `GET /search?q=${params.query}`,
    request: async (_args: readonly unknown[], _signal?: AbortSignal, context?: { baseUrl?: string }) => {
      contexts.push(context);
      return { hits: 'found' };
    },
  };
  function Results() {
    const data = useSuspense(useCancelling(endpoint, { query: 'a' }), { query: 'a' }) as { hits: string };
    return <p>{data.hits}</p>;
  }
  renderWithCache(
    <Suspense fallback={null}>
      <Results />
    </Suspense>,
    { setup: makeStore({ baseUrl: 'https://api.example.com' }) },
  );
  await screen.findByText('found');
  expect(contexts).toEqual([expect.objectContaining({ baseUrl: 'https://api.example.com', args: [{ query: 'a' }] })]);
});

/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * useSuspense over an endpoint with `invalidIfStale` (docs/store.md, "Reading a response"): once
 * its response expires, the component suspends and fetches rather than showing the stale data
 * while it revalidates. Requests are counted where they are sent; the clock is moved by a spy.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { RestEndpoint } from '../../src/index';
import { useSuspense } from '../../src/react/index';
import { fetchCalls, flushStarts, mountReader } from '../fixtures/render';
import { gate, startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const pricesAt = (origin: string, invalidIfStale: boolean) =>
  new RestEndpoint({ urlPrefix: origin, path: '/prices/:id', dataExpiryLength: 1_000, invalidIfStale });

/** Mounts a reader of `endpoint` whose price the test sees, and a way to render it again. */
async function mounted(endpoint: ReturnType<typeof pricesAt>, id: string) {
  const setup = makeStore();
  let rerender!: () => void;
  mountReader(() => {
    const [, setTick] = useState(0);
    rerender = () => setTick(tick => tick + 1);
    return (useSuspense(endpoint, { id }) as { price: number }).price;
  }, setup);
  await waitFor(() => expect(screen.getByTestId('value').textContent).toBe('1'));
  return { setup, rerender: () => rerender() };
}

for (const invalidIfStale of [true, false]) {
  test(`an expired response ${invalidIfStale ? 'suspends and fetches (invalidIfStale)' : 'stays on screen while it is fetched again'}`, async () => {
    let price = 1;
    const held = gate();
    server.on('GET /prices/:id', request => ({
      json: { id: request.url.split('/').pop(), price },
      ...(price > 1 ? { hold: held.promise } : {}),
    }));
    const getPrice = pricesAt(server.origin, invalidIfStale);
    const id = `p-${invalidIfStale}`;
    const { rerender } = await mounted(getPrice, id);
    price = 2;
    const calls = fetchCalls();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 1_001);
    try {
      act(() => rerender());
      await flushStarts();
      expect(calls.count(`/prices/${id}`)).toBe(1);
      if (invalidIfStale) expect(screen.getByText('loading')).toBeTruthy();
      else expect(screen.getByTestId('value').textContent).toBe('1');
      held.open();
      await waitFor(() => expect(screen.getByTestId('value').textContent).toBe('2'));
    } finally {
      clock.mockRestore();
      calls.restore();
      held.open();
    }
    expect(calls.count(`/prices/${id}`)).toBe(1);
  });
}

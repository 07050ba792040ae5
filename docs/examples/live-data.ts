import { configureStore } from '@reduxjs/toolkit';
import { connectStream, createCache, Entity, RestEndpoint, type StreamSource } from 'lenscache';

export class Ticker extends Entity {
  product_id = '';
  price = 0;
  override pk() {
    return this.product_id;
  }
  static override key = 'Ticker';
}

export const getTicker = new RestEndpoint({
  urlPrefix: 'https://api.example.com',
  path: '/tickers/:product_id',
  schema: Ticker,
  pollFrequency: 10_000,
  retry: { attempts: 3 }, // waits 1 s, 2 s, 4 s between tries
});

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

// Outside React: poll while subscribed (not run here: it would reach the network).
export function watchTicker(product_id: string): () => void {
  return cache.subscribe(store, getTicker, { product_id });
}

// A stream: here a scripted source; in a browser, fromEventSource(url) or fromWebSocket(url).
function scripted(messages: string[]): StreamSource {
  return emit => {
    for (const message of messages) emit(message);
    return () => undefined;
  };
}

export function run() {
  const errors: string[] = [];
  const close = connectStream(cache.controller(store), {
    schema: Ticker,
    open: scripted([
      '{"product_id":"BTC","price":64000}',
      '{"product_id":"ETH","price":3100}',
      'not json', // reported, and nothing is written
      '{"product_id":"BTC","price":64100}',
    ]),
    onError: error => errors.push((error as Error).name),
  });
  close();
  const btc = cache.selectQuery(store.getState(), Ticker, 'BTC');
  const polled = cache.selectResponse(store.getState(), getTicker, { product_id: 'BTC' });
  return { btc: btc?.price, eth: cache.selectQuery(store.getState(), Ticker, 'ETH')?.price, errors, status: polled.expiryStatus };
}

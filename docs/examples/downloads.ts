import { configureStore } from '@reduxjs/toolkit';
import { createCache, RestEndpoint } from 'lenscache';

export const downloadReport = new RestEndpoint({
  urlPrefix: 'https://api.example.com',
  path: '/reports/:id.pdf',
  content: 'blob',
});

const cache = createCache();
const store = configureStore({
  reducer: { cache: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

/** Fetches the report and hands the browser a link to it; the Blob never enters the store. */
export async function saveReport(id: string): Promise<string> {
  const pdf: Blob = await store.dispatch(cache.fetch(downloadReport, { id }));
  return URL.createObjectURL(pdf);
}

import { configureStore } from '@reduxjs/toolkit';
import type { ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { Provider } from 'react-redux';
import { streamState, type Cache } from 'lenscache';
import { CacheProvider } from 'lenscache/react';

/** A store for one request: its own data, fetching the API at `apiOrigin` (absolute URLs). */
export function makeServerStore(cache: Cache, apiOrigin: string) {
  return configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middlewareWith({ baseUrl: apiOrigin })),
  });
}

/** Written after each batch React writes, in line with its chunks. */
const BATCH_END = Symbol('the end of a batch');

/**
 * What goes between React and the response: before each batch React writes, a script with what
 * the store wrote since the last one, so a boundary's data reaches the browser before its HTML.
 * React calls `flush()` when a batch is done; the first batch (the shell, from `<!DOCTYPE html>`
 * on) gets its script after it instead, as nothing may come before the doctype. A batch comes in
 * chunks cut anywhere (even inside a tag): a script goes only between batches.
 */
export function withState(state: { next(): string }): Transform {
  let shellSent = false;
  let inBatch = false;
  const html = new Transform({
    writableObjectMode: true,
    transform(chunk: Uint8Array | typeof BATCH_END, _encoding, done) {
      if (chunk === BATCH_END) {
        if (!shellSent) this.push(state.next());
        shellSent = true;
        inBatch = false;
        return done();
      }
      if (shellSent && !inBatch) this.push(state.next());
      inBatch = true;
      done(null, chunk);
    },
  });
  // The marker goes through the stream's queue, so it stays after the batch's chunks.
  return Object.assign(html, { flush: () => void html.write(BATCH_END) });
}

/** Renders `app` (which renders `<html>`) for one request, streaming each boundary as it resolves. */
export function renderPage(
  app: ReactNode,
  response: ServerResponse,
  options: { cache: Cache; apiOrigin: string; bootstrapModules: string[] },
): void {
  const { cache, apiOrigin, bootstrapModules } = options;
  const store = makeServerStore(cache, apiOrigin);
  const html = withState(streamState(store, cache));
  html.pipe(response);
  const { pipe } = renderToPipeableStream(
    <Provider store={store}>
      <CacheProvider cache={cache}>{app}</CacheProvider>
    </Provider>,
    {
      bootstrapModules,
      onShellReady() {
        response.setHeader('content-type', 'text/html; charset=utf-8');
        pipe(html);
      },
      onShellError(error) {
        response.statusCode = 500;
        response.end(`The page could not be rendered: ${String(error)}`);
      },
    },
  );
}

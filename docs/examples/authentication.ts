import { configureStore, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { createCache, type RequestApi } from 'lenscache';

interface Session {
  token: string | null;
  refreshToken: string | null;
}

/** The user's session: an ordinary slice beside the cache. */
export const session = createSlice({
  name: 'session',
  initialState: { token: null, refreshToken: null } as Session,
  reducers: {
    loggedIn: (_, action: PayloadAction<Session>) => action.payload,
    loggedOut: () => ({ token: null, refreshToken: null }),
  },
});

const sessionOf = (api: Pick<RequestApi, 'getState'>) => (api.getState() as { session: Session }).session;

/** One refresh at a time: every request that met the expired token waits for the same one. */
let refreshing: Promise<void> | undefined;

async function refresh(url: string, api: RequestApi): Promise<void> {
  // The API's origin: the request's, or the page's for a relative URL (a browser store without baseUrl).
  const response = await fetch(new URL('/auth/refresh', new URL(url, globalThis.location?.href)), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: sessionOf(api).refreshToken }),
  });
  // A refresh the server refuses ends the session; the request's 401 then stands.
  api.dispatch(response.ok ? session.actions.loggedIn(await response.json()) : session.actions.loggedOut());
}

/**
 * Sends a request; a 401 is answered by one refresh of the token and one more try. The second
 * answer is final, even a 401 again: no loop.
 */
export async function fetchWithRefresh(input: string, init: RequestInit, api: RequestApi): Promise<Response> {
  const response = await fetch(input, init);
  // Only a request that carried the session answers for it: a 401 from another site is that site's.
  if (response.status !== 401 || !api.trusted) return response;
  // A token refreshed while this request was out is used as it is, without another refresh.
  if (new Headers(init.headers).get('authorization') === `Bearer ${sessionOf(api).token}`) {
    refreshing ??= refresh(input, api).finally(() => (refreshing = undefined));
    await refreshing;
  }
  const { token } = sessionOf(api);
  if (token === null) return response;
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return fetch(input, { ...init, headers });
}

export const cache = createCache({
  // Read at each request, so a new token is sent from the next request on; it is never part of a key.
  prepareHeaders(headers, api) {
    const { token } = sessionOf(api);
    if (token !== null) headers.set('authorization', `Bearer ${token}`);
    return headers;
  },
  fetch: fetchWithRefresh,
});

/** The store: in the browser relative URLs go to the page's origin; a server render passes its API's. */
export function makeStore(baseUrl?: string) {
  return configureStore({
    reducer: { [cache.reducerPath]: cache.reducer, session: session.reducer },
    middleware: getDefault => getDefault().concat(cache.middlewareWith({ baseUrl })),
  });
}

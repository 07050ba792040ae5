/**
 * The user's session: a token in an ordinary slice beside the cache, sent on every API request
 * by the cache's `prepareHeaders`, and refreshed on a 401 by its `fetch` option. This is the
 * recipe of docs/authentication.md (docs/examples/authentication.ts), sending through the page's
 * logged `fetch` so the log shows the refresh and the retried request too.
 */
import { createSlice, type PayloadAction, type ThunkAction, type UnknownAction } from '@reduxjs/toolkit';
import type { RequestApi } from 'lenscache';
import type { Send } from './requestLog';

export interface Session {
  token: string | null;
  refreshToken: string | null;
  /** Who is logged in, for the session bar. */
  user: { id: string; name: string } | null;
}

/** The user's session: an ordinary slice beside the cache. */
export const session = createSlice({
  name: 'session',
  initialState: { token: null, refreshToken: null, user: null } as Session,
  reducers: {
    loggedIn: (_, action: PayloadAction<Session>) => action.payload,
    loggedOut: () => ({ token: null, refreshToken: null, user: null }),
  },
});

export const sessionOf = (api: Pick<RequestApi, 'getState'>) => (api.getState() as { session: Session }).session;

/** The cache's `prepareHeaders`: read at each request, so a new token is sent from the next request on. */
export function prepareHeaders(headers: Headers, api: RequestApi): Headers {
  const { token } = sessionOf(api);
  if (token !== null) headers.set('authorization', `Bearer ${token}`);
  return headers;
}

/** One refresh at a time: every request that met the expired token waits for the same one. */
let refreshing: Promise<void> | undefined;

async function refresh(send: Send, url: string, api: RequestApi): Promise<void> {
  // The API's origin: the request's, or the page's for a relative URL (this store has no baseUrl).
  const response = await send(
    new URL('/api/auth/refresh', new URL(url, globalThis.location?.href)).href,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: sessionOf(api).refreshToken }),
    },
    api,
  );
  // A refresh the server refuses ends the session; the request's 401 then stands.
  api.dispatch(response.ok ? session.actions.loggedIn(await response.json()) : session.actions.loggedOut());
}

/**
 * The cache's `fetch`: sends a request with `send`; a 401 is answered by one refresh of the token
 * and one more try. The second answer is final, even a 401 again: no loop.
 */
export function fetchWithRefresh(send: Send) {
  return async (input: string, init: RequestInit, api: RequestApi): Promise<Response> => {
    const response = await send(input, init, api);
    // Only a request that carried the session answers for it: a 401 from another site is that site's.
    if (response.status !== 401 || !api.trusted) return response;
    // A token refreshed while this request was out is used as it is, without another refresh.
    if (new Headers(init.headers).get('authorization') === `Bearer ${sessionOf(api).token}`) {
      refreshing ??= refresh(send, input, api).finally(() => (refreshing = undefined));
      await refreshing;
    }
    const { token } = sessionOf(api);
    if (token === null) return response;
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${token}`);
    return send(input, { ...init, headers }, api);
  };
}

type Thunk<T> = ThunkAction<Promise<T>, unknown, unknown, UnknownAction>;

/** Logs in with the login form's name and password; rejects with the server's message. */
export function logIn(send: Send, name: string, password: string): Thunk<void> {
  return async dispatch => {
    const response = await send(
      '/api/auth/login',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password }) },
      { dispatch },
    );
    const body = (await response.json().catch(() => ({}))) as Partial<Session> & { message?: string };
    if (!response.ok) throw new Error(body.message ?? `Login failed (${response.status}).`);
    dispatch(session.actions.loggedIn(body as Session));
  };
}

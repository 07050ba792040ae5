/** The page's request log: an ordinary slice, written by the `fetch` every request of the page goes through. */
import { createSlice, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';
import type { RequestApi } from 'lenscache';

export interface LoggedRequest {
  n: number;
  method: string;
  url: string;
  status: number | 'failed' | 'pending';
}

export const requests = createSlice({
  name: 'requests',
  initialState: [] as LoggedRequest[],
  reducers: {
    sent: (state, action: PayloadAction<LoggedRequest>) => void state.push(action.payload),
    answered: (state, action: PayloadAction<{ n: number; status: LoggedRequest['status'] }>) => {
      const entry = state.find(request => request.n === action.payload.n);
      if (entry) entry.status = action.payload.status;
    },
  },
});

/** How the page's requests are sent: `fetch(input, init, api)` as the cache's `fetch` option is called. */
export type Send = (input: string, init: RequestInit, api: Pick<RequestApi, 'dispatch'>) => Promise<Response>;

let counter = 0;

/** Sends a request with the global `fetch`, and logs it in the store, with its answer's status. */
export const loggedFetch: Send = async (input, init, api) => {
  const n = ++counter;
  api.dispatch(requests.actions.sent({ n, method: init.method ?? 'GET', url: input, status: 'pending' }));
  try {
    const response = await fetch(input, init);
    api.dispatch(requests.actions.answered({ n, status: response.status }));
    return response;
  } catch (error) {
    api.dispatch(requests.actions.answered({ n, status: 'failed' }));
    throw error;
  }
};

/**
 * The write actions the cache's request answers made (`cache/resolve`), seen by an ordinary slice as
 * any reducer sees them. With `bursts({ window })` (main.tsx), answers that arrive close together
 * are written as one action, which carries no single request's key (`meta.key`): `joined` counts those.
 */
export const answerWrites = createSlice({
  name: 'answerWrites',
  initialState: { updates: 0, joined: 0 },
  reducers: {},
  extraReducers: builder =>
    builder.addMatcher(
      (action): action is UnknownAction & { meta?: { key?: string } } => action.type === 'cache/resolve',
      (count, action) => {
        count.updates++;
        if (action.meta?.key === undefined) count.joined++;
      },
    ),
});

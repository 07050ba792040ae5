/** useStream: a stream of server messages written into the cache while mounted (docs/live-data.md#streams). */

import { useEffect } from 'react';
import { connectStream, type StreamOptions } from '../store/features/live/stream.js';
import { useController } from './useController.js';

/**
 * Connects `options` (see `connectStream`) while mounted and while `options` is the same object;
 * `null` connects nothing. Define the options once (at module level, or with `useMemo`): a new
 * object closes the stream and opens another.
 *
 * @example
 * ```tsx
 * const tickers = { schema: Ticker, open: fromEventSource('/api/stream/tickers') };
 * function Tickers({ live }: { live: boolean }) {
 *   useStream(live ? tickers : null);
 *   // ...read Ticker rows with useQuery
 * }
 * ```
 */
export function useStream(options: StreamOptions | null): void {
  const controller = useController();
  useEffect(() => (options ? connectStream(controller, options) : undefined), [controller, options]);
}

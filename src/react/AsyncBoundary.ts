/**
 * `<ErrorBoundary>` and `<AsyncBoundary>` (docs/boundaries.md): an error boundary whose error view
 * can retry, and Suspense plus that boundary in one, as data-client's. A retry fetches again what
 * failed with nothing to show, then renders the children anew.
 */

import {
  Component,
  createElement,
  Suspense,
  useCallback,
  useRef,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { useStore } from 'react-redux';
import { nonErrorThrown } from '../normalize/rootChecks.js';
import { internalsOf } from '../store/Cache.js';
import { useCacheContext } from './CacheProvider.js';
import { ThrownReadsContext, type ThrownReads } from './thrownReads.js';

/** What an error view gets. */
export interface ErrorViewProps {
  error: Error;
  /**
   * Fetches again every response that failed with no data to show (what a reader threw), and
   * renders the boundary's children again: they suspend for the new requests.
   */
  resetErrorBoundary(): void;
}

export interface ErrorBoundaryProps {
  children?: ReactNode;
  /** The view of a caught error (default: its message and a Retry button). */
  fallbackComponent?: ComponentType<ErrorViewProps>;
  /** Told each error caught (to log it). */
  onError?(error: Error, info: ErrorInfo): void;
}

export interface AsyncBoundaryProps {
  children?: ReactNode;
  /** What shows while a reader inside suspends. */
  fallback?: ReactNode;
  /** The view of a caught error (default: its message and a Retry button). */
  errorComponent?: ComponentType<ErrorViewProps>;
  /** Told each error caught. */
  onError?(error: Error, info: ErrorInfo): void;
}

/** The default error view: the message's first line and a Retry button. */
function DefaultErrorView({ error, resetErrorBoundary }: ErrorViewProps): ReactNode {
  return createElement(
    'div',
    { role: 'alert' },
    createElement('p', null, error.message.split('\n')[0]),
    createElement('button', { type: 'button', onClick: resetErrorBoundary }, 'Retry'),
  );
}

interface CatcherProps extends ErrorBoundaryProps {
  retry(): void;
  /** Where the readers inside note what they threw for. */
  thrown: ThrownReads;
}

class Catcher extends Component<CatcherProps, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : nonErrorThrown(error) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  private readonly reset = (): void => {
    this.props.retry();
    this.setState({ error: null });
  };

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return createElement(ThrownReadsContext.Provider, { value: this.props.thrown }, this.props.children);
    return createElement(this.props.fallbackComponent ?? DefaultErrorView, { error, resetErrorBoundary: this.reset });
  }
}

/**
 * Catches what the readers inside throw (a failed request with no data to show, a set-up error)
 * and shows `fallbackComponent`; its `resetErrorBoundary` fetches the failed responses again.
 *
 * @example
 * ```tsx
 * <ErrorBoundary fallbackComponent={({ error, resetErrorBoundary }) => <button onClick={resetErrorBoundary}>{error.message}: retry</button>}>
 *   <Suspense fallback={<Spinner />}><Post id="1" /></Suspense>
 * </ErrorBoundary>
 * ```
 */
export function ErrorBoundary(props: ErrorBoundaryProps): ReactNode {
  const cache = useCacheContext('ErrorBoundary');
  const store = useStore();
  const thrown = useRef<ThrownReads>(new Map()).current;
  const retry = useCallback(() => {
    // What a reader threw is a response with no data to show (a failure beside shown data is
    // returned, not thrown): a failure with no result, or a read noted by its reader (a result
    // that reads as deleted). Invalidated, each is fetched again as the children render.
    const rootState = store.getState();
    const state = internalsOf(cache).slice(rootState);
    const again = new Set<string>();
    for (const [key, { endpoint, args }] of thrown)
      if (cache.selectResponse(rootState, endpoint, ...(args as never[])).data === undefined) again.add(key);
    thrown.clear();
    const failed = (key: string) =>
      again.has(key) || (state.meta[key]?.error !== undefined && state.endpoints[key] === undefined);
    store.dispatch(cache.invalidateAll({ testKey: failed }) as never);
  }, [cache, store, thrown]);
  return createElement(Catcher, { ...props, retry, thrown });
}

/**
 * Suspense and an ErrorBoundary in one: `fallback` while a reader inside suspends, `errorComponent`
 * (with a retry) when one throws.
 *
 * @example
 * ```tsx
 * <AsyncBoundary fallback={<Spinner />} errorComponent={ErrorView}>
 *   <PostList group="react" />
 * </AsyncBoundary>
 * ```
 */
export function AsyncBoundary({ children, fallback, errorComponent, onError }: AsyncBoundaryProps): ReactNode {
  return createElement(
    ErrorBoundary,
    { ...(errorComponent ? { fallbackComponent: errorComponent } : {}), ...(onError ? { onError } : {}) },
    createElement(Suspense, { fallback: fallback ?? null }, children),
  );
}

/**
 * lenscache/react: CacheProvider and the hooks, on react-redux.
 * @see docs/hooks.md
 */
export { CacheProvider, type CacheProviderProps } from './CacheProvider.js';
export { useQuery } from './useQuery.js';
export { useSuspense } from './useSuspense.js';
export { useFetch, type UsablePromise } from './useFetch.js';
export { useCache } from './useCache.js';
export { useController } from './useController.js';
export { useSubscription } from './useSubscription.js';
export { useLive } from './useLive.js';
export { useStream } from './useStream.js';
export { useMutation, type MutationState, type UseMutationResult } from './useMutation.js';
export { useDLE, type DLE } from './useDLE.js';
export {
  AsyncBoundary,
  ErrorBoundary,
  type AsyncBoundaryProps,
  type ErrorBoundaryProps,
  type ErrorViewProps,
} from './AsyncBoundary.js';
export { useInfinite, type Infinite, type PagedEndpoint } from './useInfinite.js';
export { useDebounce } from './useDebounce.js';
export { useCancelling } from './useCancelling.js';
export { useRowStatus } from './useRowStatus.js';
export type { SkippableArgs } from './useResponse.js';

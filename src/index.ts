/**
 * lenscache: a normalized data cache inside a Redux store.
 * @see README.md and docs/ for guides.
 */
export { Entity, type EntityClass } from './schema/Entity.js';
export { All } from './schema/All.js';
export { Collection, type CollectionOptions } from './schema/Collection.js';
export { CollectionOp, type CollectionOpName } from './schema/CollectionOp.js';
export type { CollectionMerge, CreateCollectionFilter } from './schema/CollectionLike.js';
export type { NonFilterArgumentKeys } from './schema/collectionKey.js';
export { Invalidate } from './schema/Invalidate.js';
export { Lazy, LazyQuery } from './schema/Lazy.js';
export { Query } from './schema/Query.js';
export { Scalar, type LensArgs, type LensParams, type ScalarOptions } from './schema/Scalar.js';
export { Union } from './schema/Union.js';
export { Values } from './schema/Values.js';
export type { SchemaAttribute, PolymorphicRef } from './schema/polymorphic.js';
export type { Denormalize, Normalize, Queried } from './schema/types.js';
export * as schema from './schema/namespace.js';

export type { Normalized, NormalizeOptions } from './normalize/normalize.js';
export { normalize } from './store/writes/normalizeState.js';
export { denormalize, type DenormalizeOptions } from './store/reads/denormalizeState.js';

export {
  RestEndpoint,
  type RestEndpointOptions,
  type RestArgs,
  type RestParams,
  type HttpMethod,
  type Extended,
  type PageEndpoint,
} from './rest/RestEndpoint.js';
export { isNetworkError, NetworkError } from './rest/NetworkError.js';
export {
  resource,
  type Resource,
  type ResourceOptions,
  type ListPath,
  type RestEndpointClass,
} from './rest/resource.js';
export type { PageSchema } from './rest/paginationTypes.js';
export { CollectionPage } from './schema/CollectionPage.js';
export type { PathParams, PathValue } from './rest/pathParams.js';
export type { OptimisticSnapshot } from './rest/OptimisticSnapshot.js';
export type { RequestApi, RequestContext, RequestOptions } from './rest/requestContext.js';

export {
  createCache,
  type Cache,
  type CacheOptions,
  type CacheThunk,
  type ArgsOf,
  type ResponseData,
  type KeyFilter,
} from './store/createCache.js';
export { hydrate, receiveState, serializeState, streamState } from './store/serverState.js';
export { createLeanCache, type LeanCacheOptions } from './store/createLeanCache.js';
export {
  garbageCollection,
  liveData,
  optimisticUpdates,
  pagination,
  retries,
  crossTab,
  outbox,
  bursts,
} from './store/features/index.js';
export type {
  BurstOptions,
  CrossTab,
  CrossTabOptions,
  TabChannel,
  Outbox,
  OutboxOptions,
  OutboxStorage,
} from './store/features/index.js';
export { subscribe, setupListeners } from './store/features/live/index.js';
export type {
  FeatureName,
  FeatureHooks,
  ListenerOptions,
  ListenerSource,
  SweepReport,
} from './store/runtime/Feature.js';
export type { Feature } from './store/runtime/StoreRuntime.js';
export { Controller, type StoreLike } from './store/runtime/Controller.js';
export { firstPageOnly } from './store/runtime/pages.js';
export type { FetchPromise } from './store/runtime/Requests.js';
export { ActionTypes, type WriteAction, type WritePayload } from './store/slice/reducer.js';
export type { EndpointLike } from './store/endpoint.js';
export type { ResponseState, ExpiryStatus } from './store/reads/selectors.js';
export type { ResolveInput } from './store/types.js';
export { selectRowStatus, type RowStatus } from './store/reads/rowStatus.js';
export { connectStream, type StreamEnd, type StreamOptions, type StreamSource } from './store/features/live/stream.js';
export { fromEventSource, fromWebSocket, type WebSocketSourceOptions } from './store/features/live/streamSources.js';
export type { ContentData, ResponseContent, RetryOptions } from './base/endpointOptions.js';

export { LensCacheError, ErrorCode, type ErrorRecord } from './base/errors.js';
export type { Patch, WriteMeta } from './base/patch.js';
export type { CacheState, EndpointMeta, Row } from './base/state.js';

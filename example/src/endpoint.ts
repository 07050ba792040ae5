/**
 * WORKAROUND, to delete once lenscache passes the store's request options on everywhere: two of
 * its paths call `endpoint.request(args, signal)` without them, so their requests would go with
 * no token, no refresh and no log entry (a 401, then a logout): the request of a `useCancelling`
 * endpoint (the search), and the pages after the first when a list holding pages is fetched
 * again (a refetch on focus, a bond list read at a new portfolio). This endpoint class sends such
 * a request with the page store's options, as the store would have.
 */
import { RestEndpoint, type RequestContext, type RestEndpointOptions } from 'lenscache';

type StoreContext = Omit<RequestContext, 'endpoint' | 'args'>;
let storeContext: StoreContext | undefined;

/** The page store's request options, for the requests sent without them (main.tsx). */
export function setStoreContext(context: StoreContext): void {
  storeContext = context;
}

/** The example's endpoints: a RestEndpoint whose requests always carry the store's options. */
export class AppEndpoint<const O extends RestEndpointOptions = RestEndpointOptions> extends RestEndpoint<O> {
  override request(args: readonly unknown[], signal?: AbortSignal, context?: RequestContext): Promise<unknown> {
    return super.request(args, signal, context ?? (storeContext && { ...storeContext, endpoint: this, args }));
  }
}

/** The example's data: a product and its reviews, from the app's own route handlers (app/api/). */
import { createCache, Entity, RestEndpoint } from 'lenscache';

export class Product extends Entity {
  id = '';
  name = '';
  static override key = 'Product';
}

export class Review extends Entity {
  id = '';
  text = '';
  static override key = 'Review';
}

/** Relative URLs: the browser fetches its own origin, the server's store its `baseUrl`. */
export const getProduct = new RestEndpoint({ path: '/api/products/:id', schema: Product });
export const getReviews = new RestEndpoint({ path: '/api/products/:id/reviews', schema: [Review] });

/** One cache per module, on the server as in the browser; the stores are made per request. */
export const cache = createCache();

/**
 * Type tests for the types an app names: a read entity (`Denormalize<typeof E>`), a guess's params
 * checked against the endpoint's path and searchParams, and a body naming a nested entity by its id.
 */
import { configureStore } from '@reduxjs/toolkit';
import {
  createCache,
  Entity,
  resource,
  RestEndpoint,
  Scalar,
  type Denormalize,
  type LensArgs,
  type PathValue,
} from '../../src/index';
import { expectType, type Equal } from './expect';

class Category extends Entity {
  id = '';
  label = '';
  static override key = 'NamedCategory';
}
class Tag extends Entity {
  id = '';
  static override key = 'NamedTag';
}
class Product extends Entity {
  id = '';
  name = '';
  price = 0;
  category = Category.fromJS();
  tags: Tag[] = [];
  static override key = 'NamedProduct';
  declare static schema: { price: Scalar; category: typeof Category; tags: (typeof Tag)[] };
}
const CurrencyScalar = new Scalar({
  lens: (args: LensArgs<{ currency?: string }>) => args[0]?.currency,
  key: 'namedCurrency',
  entity: Product,
});
Product.schema = { price: CurrencyScalar, category: Category, tags: [Tag] };

const cache = createCache();
const store = configureStore({ reducer: { cache: cache.reducer }, middleware: d => d().concat(cache.middleware) });

// A read product: its Scalar field reads `number | undefined`, so it is not a `Product`.
type ReadProduct = Denormalize<typeof Product>;
const read = cache.selectQuery(store.getState(), Product, { id: '1', currency: 'USD' });
expectType<Equal<typeof read, ReadProduct | undefined>>(true);
expectType<Equal<ReadProduct['price'], number | undefined>>(true);
expectType<Equal<ReadProduct['name'], string>>(true);
// @ts-expect-error a read product is not assignable to the class
const asClass: Product | undefined = read;
void asClass;

// A guess takes the endpoint's own params: a misspelt or unknown one is refused, as in any call.
new RestEndpoint({
  path: '/products/:id',
  method: 'PATCH',
  body: {} as { name: string },
  searchParams: {} as { currency: string },
  // @ts-expect-error `wrong` is no param of the endpoint
  getOptimisticResponse: (_snap, params: { wrong: number }) => params,
});
new RestEndpoint({
  path: '/products/:id',
  method: 'PATCH',
  // @ts-expect-error `wrong` is no param of the endpoint, beside one that is
  getOptimisticResponse: (_snap, params: { id: string; wrong: number }) => params,
});
new RestEndpoint({
  path: '/products/:id',
  method: 'PATCH',
  body: {} as { name: string },
  // @ts-expect-error the body is the endpoint's body
  getOptimisticResponse: (_snap, _params: { id: string }, body: { title: number }) => body,
});
// A guess may name a few of the params, or narrow one (ids are strings in this app).
const rename = new RestEndpoint({
  path: '/products/:id',
  method: 'PATCH',
  body: {} as { name: string },
  searchParams: {} as { currency: string },
  schema: Product,
  getOptimisticResponse: (snap, params: { id: string }, body?: { name: string }) => ({
    ...snap.get(Product, params),
    ...body,
  }),
});
expectType<Equal<Parameters<typeof rename.url>[0], { id: PathValue } & { currency: string }>>(true);
const getProducts = new RestEndpoint({ path: '/products', schema: [Product] });
getProducts.extend({
  searchParams: {} as { currency: string },
  // @ts-expect-error extend checks the guess against the extended endpoint's params
  getOptimisticResponse: (_snap, params: { wrong: number }) => params,
});
getProducts.extend({
  searchParams: {} as { currency: string },
  getOptimisticResponse: (_snap, params: { currency: string }) => params,
});

// A mutation body may name a nested entity by its id, as the cache stores it.
const products = resource({ path: '/products/:id', schema: Product });
store.dispatch(cache.fetch(products.partialUpdate, { id: '1' }, { category: 'mugs' }));
store.dispatch(cache.fetch(products.partialUpdate, { id: '1' }, { category: { id: 'mugs', label: 'Mugs' } }));
store.dispatch(cache.fetch(products.partialUpdate, { id: '1' }, { tags: ['new', 7] }));
store.dispatch(cache.fetch(products.getList.push, {}, { name: 'Blue Mug', category: 'mugs' }));
// @ts-expect-error a field that is no entity still takes its own type
store.dispatch(cache.fetch(products.partialUpdate, { id: '1' }, { name: 5 }));
// @ts-expect-error an id is a string or a number
store.dispatch(cache.fetch(products.partialUpdate, { id: '1' }, { category: true }));

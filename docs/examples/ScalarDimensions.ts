import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, Scalar, Values, type LensArgs } from 'lenscache';

type Dimensions = { locale?: string; currency?: string };

export class Product extends Entity {
  id = '';
  sku = '';
  name = '';
  price = 0;
  static override key = 'Product';
  declare static schema: { name: Scalar; price: Scalar };
}
// One Scalar per dimension: the name depends on the locale alone, the price on the currency alone.
export const LocaleScalar = new Scalar({
  lens: (args: LensArgs<Dimensions>) => args[0]?.locale,
  key: 'locale',
  entity: Product,
});
export const CurrencyScalar = new Scalar({
  lens: (args: LensArgs<Dimensions>) => args[0]?.currency,
  key: 'currency',
  entity: Product,
});
Product.schema = { name: LocaleScalar, price: CurrencyScalar };

const products = new Collection([Product], { argsKey: () => ({}) });
// GET /products?locale=en-US&currency=USD: one list for every combination.
export const getProducts = {
  key: (params: { locale: string; currency: string }) => `GET /products?locale=${params.locale}&currency=${params.currency}`,
  schema: products,
};
// Each dimension's columns: GET /products/names?locale=fr-FR, GET /products/prices?currency=EUR.
export const getNames = {
  key: (params: { locale: string }) => `GET /products/names?locale=${params.locale}`,
  schema: new Values(LocaleScalar),
};
export const getPrices = {
  key: (params: { currency: string }) => `GET /products/prices?currency=${params.currency}`,
  schema: new Values(CurrencyScalar),
};
// PATCH /products/1?locale=en-US: a rename in one locale.
export const rename = {
  key: (params: { id: string; locale: string }) => `PATCH /products/${params.id}?locale=${params.locale}`,
  schema: Product,
};

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

const read = (locale: string, currency: string) => {
  const product = cache.selectQuery(store.getState(), products, { locale, currency })?.[0];
  return `${product?.sku} ${product?.name} ${product?.price}`;
};

export function run() {
  store.dispatch(
    cache.setResponse(getProducts, { locale: 'en-US', currency: 'USD' }, [
      { id: '1', sku: 'M-1', name: 'White Mug', price: 10 },
    ]),
  );
  store.dispatch(cache.setResponse(getNames, { locale: 'fr-FR' }, { 1: { name: 'Tasse blanche' } }));
  store.dispatch(cache.setResponse(getPrices, { currency: 'EUR' }, { 1: { price: 9 } }));
  // A rename in en-US: the name is stored once for en-US, whatever currency the screen shows.
  store.dispatch(cache.setResponse(rename, { id: '1', locale: 'en-US' }, { id: '1', name: 'White Mug 4' }));

  const state = store.getState().cache.entities;
  return {
    enUSD: read('en-US', 'USD'), // 'M-1 White Mug 4 10'
    enEUR: read('en-US', 'EUR'), // 'M-1 White Mug 4 9'
    frEUR: read('fr-FR', 'EUR'), // 'M-1 Tasse blanche 9'
    frUSD: read('fr-FR', 'USD'), // 'M-1 Tasse blanche 10'
    names: Object.keys(state['Scalar(locale)'] ?? {}), // ['Product|1|en-US', 'Product|1|fr-FR']
    prices: Object.keys(state['Scalar(currency)'] ?? {}), // ['Product|1|USD', 'Product|1|EUR']
  };
}

/**
 * An entity whose fields depend on two different args (docs/Scalar.md, "Several dimensions"): the
 * localized fields under a locale Scalar, the price under a currency Scalar, each with its own
 * columns endpoint, over a real server. A rename and a create are seen at every combination;
 * revisiting one dimension's lens fetches nothing for it; a Query keeps its answer when the
 * dimension it does not read changes.
 */
import { All, Collection, Entity, Query, RestEndpoint, Scalar, Values, type LensArgs } from '../../src/index';
import { requestsSince, startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

type Dimensions = { locale?: string; currency?: string };

class Product extends Entity {
  id = '';
  sku = '';
  name = '';
  category = '';
  price = 0;
  static override key = 'TwoLensProduct';
  declare static schema: { name: Scalar; category: Scalar; price: Scalar };
}
const LocaleScalar = new Scalar({
  lens: (args: LensArgs<Dimensions>) => args[0]?.locale,
  key: 'twoLensLocale',
  entity: Product,
});
const CurrencyScalar = new Scalar({
  lens: (args: LensArgs<Dimensions>) => args[0]?.currency,
  key: 'twoLensCurrency',
  entity: Product,
});
Product.schema = { name: LocaleScalar, category: LocaleScalar, price: CurrencyScalar };

const RATES: Record<string, number> = { USD: 1, EUR: 0.9 };
const LABELS: Record<string, Record<string, string>> = {
  'en-US': { mugs: 'Mugs', plates: 'Plates' },
  'fr-FR': { mugs: 'Tasses', plates: 'Assiettes' },
};
/** The server's products: prices in USD, names per locale. */
let rows: Array<{ id: string; sku: string; names: Record<string, string>; category: string; usd: number }>;
const seed = () => [
  { id: '1', sku: 'M-1', names: { 'en-US': 'White Mug', 'fr-FR': 'Tasse blanche' }, category: 'mugs', usd: 10 },
  { id: '2', sku: 'P-1', names: { 'en-US': 'Plate', 'fr-FR': 'Assiette' }, category: 'plates', usd: 20 },
];
const localized = (row: (typeof rows)[number], locale: string) => ({
  name: row.names[locale]!,
  category: LABELS[locale]![row.category]!,
});
const priced = (row: (typeof rows)[number], currency: string) => Math.round(row.usd * RATES[currency]! * 100) / 100;
const full = (row: (typeof rows)[number], locale: string, currency: string) => ({
  id: row.id,
  sku: row.sku,
  ...localized(row, locale),
  price: priced(row, currency),
});

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  const param = (url: URL, name: string) => url.searchParams.get(name) ?? '';
  server.on('GET /products', (_r, url) => ({
    json: rows.map(row => full(row, param(url, 'locale'), param(url, 'currency'))),
  }));
  server.on('GET /products/names', (_r, url) => ({
    json: Object.fromEntries(rows.map(row => [row.id, localized(row, param(url, 'locale'))])),
  }));
  server.on('GET /products/prices', (_r, url) => ({
    json: Object.fromEntries(rows.map(row => [row.id, { price: priced(row, param(url, 'currency')) }])),
  }));
  server.on('PATCH /products/:id', (request, url) => {
    const row = rows.find(r => r.id === url.pathname.split('/').pop())!;
    const locale = param(url, 'locale');
    row.names[locale] = (request.body as { name: string }).name;
    return { json: { id: row.id, name: row.names[locale] } };
  });
  server.on('POST /products', (request, url) => {
    const body = request.body as { sku: string; name: string; category: string; price: number };
    const currency = param(url, 'currency');
    const row = {
      id: String(rows.length + 1),
      sku: body.sku,
      names: { [param(url, 'locale')]: body.name },
      category: body.category,
      usd: body.price / RATES[currency]!,
    };
    row.names['fr-FR'] ??= `${body.name} (fr)`;
    rows.push(row);
    return { json: full(row, param(url, 'locale'), currency) };
  });
});
afterAll(() => server.close());
beforeEach(() => (rows = seed()));

function setup() {
  const urlPrefix = server.origin;
  const searchParams = {} as { locale: string; currency: string };
  // One list for every combination: the lenses pick the values, not the list.
  const products = new Collection([Product], { argsKey: () => ({}) });
  const getProducts = new RestEndpoint({ urlPrefix, path: '/products', searchParams, schema: products });
  const getNames = new RestEndpoint({
    urlPrefix,
    path: '/products/names',
    searchParams: {} as { locale: string },
    schema: new Values(LocaleScalar),
  });
  const getPrices = new RestEndpoint({
    urlPrefix,
    path: '/products/prices',
    searchParams: {} as { currency: string },
    schema: new Values(CurrencyScalar),
  });
  const rename = new RestEndpoint({
    urlPrefix,
    path: '/products/:id',
    method: 'PATCH',
    searchParams: {} as { locale: string },
    schema: Product,
  });
  const create = new RestEndpoint({
    urlPrefix,
    path: '/products',
    method: 'POST',
    searchParams,
    schema: products.push,
  });
  const { cache, store } = makeStore();
  /** Both dimensions' columns, as a screen at a combination asks for them when it is not the list's. */
  const visit = async (locale: string, currency: string) => {
    await store.dispatch(cache.fetchIfStale(getProducts, { locale, currency }));
    await store.dispatch(cache.fetchIfStale(getNames, { locale }));
    await store.dispatch(cache.fetchIfStale(getPrices, { currency }));
  };
  const read = (locale: string, currency: string) =>
    cache
      .selectQuery(store.getState(), products, { locale, currency })
      ?.map(product => `${product.sku} ${product.name} [${product.category}] ${product.price}`);
  return { cache, store, getProducts, getNames, getPrices, rename, create, products, visit, read };
}

test('a rename at one combination is seen at every combination of its locale, and no other locale', async () => {
  const { store, cache, rename, visit, read } = setup();
  await visit('en-US', 'USD');
  await visit('en-US', 'EUR');
  await visit('fr-FR', 'EUR');
  await store.dispatch(cache.fetch(rename, { id: '1', locale: 'en-US' }, { name: 'White Mug 4' }));

  expect(read('en-US', 'USD')?.[0]).toBe('M-1 White Mug 4 [Mugs] 10');
  expect(read('en-US', 'EUR')?.[0]).toBe('M-1 White Mug 4 [Mugs] 9');
  expect(read('fr-FR', 'EUR')?.[0]).toBe('M-1 Tasse blanche [Tasses] 9');
  expect(read('fr-FR', 'USD')?.[0]).toBe('M-1 Tasse blanche [Tasses] 10');
});

test('a create at one combination: its fields at the others once their columns are fetched', async () => {
  const { store, cache, create, getNames, getPrices, visit, read } = setup();
  await visit('en-US', 'USD');
  await visit('fr-FR', 'EUR');
  const body = { sku: 'M-2', name: 'Blue Mug', category: 'mugs', price: 12 };
  await store.dispatch(cache.fetch(create, { locale: 'en-US', currency: 'USD' }, body));

  expect(read('en-US', 'USD')?.[2]).toBe('M-2 Blue Mug [Mugs] 12');
  // The stable field is there at once; the other lenses' values once their columns arrive.
  expect(read('fr-FR', 'EUR')?.[2]).toBe('M-2 undefined [undefined] undefined');
  expect(read('en-US', 'EUR')?.[2]).toBe('M-2 Blue Mug [Mugs] undefined');
  await store.dispatch(cache.fetch(getPrices, { currency: 'EUR' }));
  expect(read('en-US', 'EUR')?.[2]).toBe('M-2 Blue Mug [Mugs] 10.8');
  await store.dispatch(cache.fetch(getNames, { locale: 'fr-FR' }));
  expect(read('fr-FR', 'EUR')?.[2]).toBe('M-2 Blue Mug (fr) [Tasses] 10.8');
  expect(read('fr-FR', 'USD')?.[2]).toBe('M-2 Blue Mug (fr) [Tasses] 12');
});

test('requests per dimension: a lens fetched once is never fetched again when the other dimension moves', async () => {
  const { visit, read } = setup();
  const sent = requestsSince(server);
  await visit('en-US', 'USD');
  await visit('en-US', 'EUR');
  await visit('fr-FR', 'EUR');
  await visit('fr-FR', 'USD');
  const first = sent();
  // The list once; then each new lens's columns once, whatever the other lens was.
  expect(first.map(url => url.split('?')[0])).toEqual([
    '/products',
    '/products/names',
    '/products/prices',
    '/products/prices',
    '/products/names',
  ]);
  await visit('en-US', 'USD');
  await visit('fr-FR', 'EUR');
  await visit('en-US', 'EUR');
  expect(sent()).toEqual(first);
  expect(read('fr-FR', 'USD')).toEqual(['M-1 Tasse blanche [Tasses] 10', 'P-1 Assiette [Assiettes] 20']);
});

test('a Query over the entity keeps its answer (===) when the dimension it does not read changes', async () => {
  const { cache, store, visit } = setup();
  const total = new Query(new All(Product), products =>
    products.reduce((sum, product) => sum + (product.price ?? 0), 0),
  );
  const perCategory = new Query(new All(Product), products => {
    const counts: Record<string, number> = {};
    for (const product of products) counts[product.category ?? '?'] = (counts[product.category ?? '?'] ?? 0) + 1;
    return counts;
  });
  const totalOf = new Query(new All(Product), products => ({
    sum: products.reduce((sum, product) => sum + (product.price ?? 0), 0),
  }));
  await visit('en-US', 'USD');
  await visit('fr-FR', 'EUR');
  await visit('en-US', 'EUR');
  await visit('fr-FR', 'USD');
  const read = <T>(query: Query<any, T>, locale: string, currency: string): T | undefined =>
    cache.selectQuery(store.getState(), query, { locale, currency }) as T | undefined;

  expect(read(total, 'en-US', 'USD')).toBe(30);
  const counts = read(perCategory, 'en-US', 'USD');
  expect(counts).toEqual({ Mugs: 1, Plates: 1 });
  expect(read(perCategory, 'en-US', 'EUR')).toBe(counts);
  expect(read(perCategory, 'fr-FR', 'EUR')).toEqual({ Tasses: 1, Assiettes: 1 });
  expect(read(perCategory, 'en-US', 'USD')).toBe(counts);

  const sum = read(totalOf, 'en-US', 'EUR');
  expect(sum).toEqual({ sum: 27 });
  expect(read(totalOf, 'fr-FR', 'EUR')).toBe(sum);
  expect(read(totalOf, 'fr-FR', 'USD')).toEqual({ sum: 30 });
  expect(read(totalOf, 'en-US', 'EUR')).toBe(sum);
});

import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, resource, Scalar, type LensArgs } from 'lenscache';

export class Company extends Entity {
  id = '';
  name = '';
  pct_equity = 0;
  static override key = 'Company';
  declare static schema: { pct_equity: Scalar };
}

export const PortfolioScalar = new Scalar({
  lens: (args: LensArgs<{ portfolio?: string }>) => args[0]?.portfolio,
  key: 'portfolio',
  entity: Company,
});
Company.schema = { pct_equity: PortfolioScalar };

export const CompanyResource = resource({
  urlPrefix: 'https://api.example.com',
  path: '/companies/:id',
  schema: Company,
  searchParams: {} as { portfolio: string },
  // One list for every portfolio: the lens picks the values, not the list.
  collection: { argsKey: () => ({}) },
});
// The item endpoints take path params only; one read at a lens names the lens too.
export const getCompanyAt = CompanyResource.get.extend({ searchParams: {} as { portfolio: string } });

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function run() {
  const { getList, partialUpdate } = CompanyResource;
  // What cache.fetch would store from the server's answers:
  store.dispatch(cache.setResponse(getList, { portfolio: 'A' }, [{ id: '1', name: 'Acme', pct_equity: 0.5 }]));
  store.dispatch(cache.setResponse(getCompanyAt, { id: '1', portfolio: 'B' }, { id: '1', name: 'Acme', pct_equity: 0.3 }));
  // A rename needs no lens: the stable fields are stored once.
  store.dispatch(cache.setResponse(partialUpdate, { id: '1' }, { name: 'Acme Co' }, { id: '1', name: 'Acme Co' }));

  const at = (portfolio: string) => cache.selectQuery(store.getState(), getList.schema, { portfolio })?.[0];
  return {
    atA: [at('A')?.name, at('A')?.pct_equity], // ['Acme Co', 0.5]
    atB: [at('B')?.name, at('B')?.pct_equity], // ['Acme Co', 0.3]
    url: getList.url({ portfolio: 'B' }), // 'https://api.example.com/companies?portfolio=B'
  };
}

import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, Scalar, Values, type LensArgs } from 'lenscache';

export class Company extends Entity {
  id = '';
  name = '';
  price = 0;
  pct_equity = 0;
  shares = 0;
  static override key = 'Company';
  // The schema is set below the Scalar; its type here tells TypeScript that these two fields
  // read `undefined` at a portfolio whose values have not arrived (number | undefined).
  declare static schema: { pct_equity: Scalar; shares: Scalar };
}

export const PortfolioScalar = new Scalar({
  // The lens, from the args of each read and write; args[0] is the params object.
  lens: (args: LensArgs<{ portfolio?: string }>) => args[0]?.portfolio,
  key: 'portfolio', // the table: Scalar(portfolio), which is also PortfolioScalar.key
  entity: Company, // for standalone use (columns endpoints)
});
Company.schema = { pct_equity: PortfolioScalar, shares: PortfolioScalar };

type PortfolioParams = { portfolio: string };
// GET /companies?portfolio=A — one list for every portfolio (the lens is not a filter).
export const getCompanies = {
  key: (params: PortfolioParams) => `GET /companies?portfolio=${params.portfolio}`,
  schema: new Collection([Company], { argsKey: () => ({}) }),
};
// GET /companies/columns?portfolio=B — only the lens-dependent columns, keyed by company id.
export const getColumns = {
  key: (params: PortfolioParams) => `GET /companies/columns?portfolio=${params.portfolio}`,
  schema: new Values(PortfolioScalar),
};

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function run() {
  store.dispatch(
    cache.setResponse(getCompanies, { portfolio: 'A' }, [
      { id: '1', name: 'Acme', price: 100, pct_equity: 0.5, shares: 32342 },
      { id: '2', name: 'Globex', price: 40, pct_equity: 0.2, shares: 1200 },
    ]),
  );
  const companyTable = store.getState().cache.entities.Company;
  store.dispatch(cache.setResponse(getColumns, { portfolio: 'B' }, { 1: { pct_equity: 0.3, shares: 323 } }));

  const state = store.getState();
  const atA = cache.selectQuery(state, getCompanies.schema, { portfolio: 'A' });
  const atB = cache.selectQuery(state, getCompanies.schema, { portfolio: 'B' });
  return {
    acmeAtA: atA?.[0]?.pct_equity, // 0.5
    acmeAtB: atB?.[0]?.pct_equity, // 0.3
    globexAtB: atB?.[1]?.pct_equity, // undefined: no column for it at B yet
    nameAtB: atB?.[1]?.name, // 'Globex': stable fields read the same under every lens
    sameViewOfA: cache.selectQuery(state, getCompanies.schema, { portfolio: 'A' }) === atA, // true
    rowsUntouched: state.cache.entities.Company === companyTable, // true: the columns went to cells
    cells: Object.keys(state.cache.entities['Scalar(portfolio)'] ?? {}), // ['Company|1|A', 'Company|2|A', 'Company|1|B']
    cellsOfB: cache.selectQuery(state, PortfolioScalar, { portfolio: 'B' }), // [{ pct_equity: 0.3, shares: 323 }]
  };
}

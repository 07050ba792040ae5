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

// GET /companies?portfolio=A — one list for every portfolio (the lens is not a filter).
const companies = new Collection([Company], { argsKey: () => ({}) });
export const getCompanies = {
  key: (params: { portfolio: string }) => `GET /companies?portfolio=${params.portfolio}`,
  schema: companies,
};
// GET /companies/columns?portfolio=B&ids=1,2 — only the lens-dependent columns of those companies.
export const getColumns = {
  key: (params: { portfolio: string; ids: string }) => `GET /companies/columns?portfolio=${params.portfolio}&ids=${params.ids}`,
  schema: new Values(PortfolioScalar),
};

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

/** The server's values: what it answers for a company at a portfolio. */
const holdings: Record<string, Record<string, { pct_equity: number; shares: number }>> = {
  A: { 1: { pct_equity: 0.5, shares: 32342 }, 2: { pct_equity: 0.2, shares: 1200 }, 3: { pct_equity: 0.1, shares: 50 } },
  B: { 1: { pct_equity: 0.3, shares: 323 }, 2: { pct_equity: 0.6, shares: 90 }, 3: { pct_equity: 0.4, shares: 7 } },
};
const sent: string[] = [];

/** The ids of the listed companies whose values at `portfolio` have not arrived. */
export function missingAt(portfolio: string): string[] {
  const list = cache.selectQuery(store.getState(), companies, { portfolio }) ?? [];
  return list.filter(company => company.pct_equity === undefined).map(company => company.id);
}

/**
 * What a screen at `portfolio` does, whatever lens the list was loaded with: the list when there
 * is none, else the columns of the companies that lack values here (none on a revisit).
 * In React: `useFetch(getColumns, ids.length ? { portfolio, ids: ids.join(',') } : null)`.
 */
function show(portfolio: string) {
  const at = holdings[portfolio]!;
  if (cache.selectQuery(store.getState(), companies, { portfolio }) === undefined) {
    sent.push(getCompanies.key({ portfolio }));
    const names: Record<string, string> = { 1: 'Acme', 2: 'Globex' };
    const list = Object.keys(names).map(id => ({ id, name: names[id]!, price: 100, ...at[id] }));
    store.dispatch(cache.setResponse(getCompanies, { portfolio }, list));
    return;
  }
  const ids = missingAt(portfolio);
  if (ids.length === 0) return;
  const params = { portfolio, ids: ids.join(',') };
  sent.push(getColumns.key(params));
  store.dispatch(cache.setResponse(getColumns, params, Object.fromEntries(ids.map(id => [id, at[id]!]))));
}

const read = (portfolio: string) =>
  cache.selectQuery(store.getState(), companies, { portfolio })?.map(company => `${company.name} ${company.pct_equity}`);

export function run() {
  show('A'); // the list, with A's values
  const companyTable = store.getState().cache.entities.Company;
  show('B'); // B's columns alone, for both companies
  const rowsUntouched = store.getState().cache.entities.Company === companyTable; // true: the columns went to cells
  const atA = cache.selectQuery(store.getState(), companies, { portfolio: 'A' });
  show('A'); // a revisit: nothing is sent
  show('B');
  const sameViewOfA = cache.selectQuery(store.getState(), companies, { portfolio: 'A' }) === atA; // true

  // A create at B (what `cache.fetch(getCompanies.schema.push, ...)` stores from the server's answer).
  store.dispatch(cache.set(companies.push, { portfolio: 'B' }, { id: '3', name: 'Initech', price: 10, ...holdings.B![3] }));
  const createdAtA = read('A')?.[2]; // 'Initech undefined': its stable fields at once, A's values not yet
  show('A'); // only the new company's columns at A
  show('B');
  return {
    acmeAtB: read('B')?.[0], // 'Acme 0.3'
    createdAtA,
    atA: read('A'), // ['Acme 0.5', 'Globex 0.2', 'Initech 0.1']
    sameViewOfA,
    rowsUntouched,
    sent, // ['GET /companies?portfolio=A', '…columns?portfolio=B&ids=1,2', '…columns?portfolio=A&ids=3']
    cellsOfB: cache.selectQuery(store.getState(), PortfolioScalar, { portfolio: 'B' })?.length, // 3
  };
}

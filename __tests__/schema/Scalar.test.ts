/** Scalar (BEHAVIOR §10): lens-dependent entity fields, cells, reads per lens. */
import { Collection, Entity, ErrorCode, Scalar, Values } from '../../src/index';
import { companies, Company, companyList, getColumnsList, getColumnsMap, getCompanies, PortfolioScalar } from '../fixtures/company';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError } from '../fixtures/writes';

const A = { portfolio: 'A' };
const B = { portfolio: 'B' };

describe('the Company example (§1.5)', () => {
  test.each([
    ['Values(Scalar)', getColumnsMap, { 1: { pct_equity: 0.3, shares: 323 } }],
    ['Collection([Scalar])', getColumnsList, [{ id: '1', pct_equity: 0.3, shares: 323 }]],
  ])('list at A, columns at B (%s): reads at A, B, A, B', (_, columns, response) => {
    const { cache, store } = makeStore();
    store.dispatch(cache.setResponse(getCompanies, A, companies));
    const companyRows = store.getState().cache.entities.Company;
    store.dispatch(cache.setResponse(columns as typeof getColumnsMap, B, response as never));
    const state = store.getState();
    expect(state.cache.entities.Company).toBe(companyRows);
    expect(snapshot(state.cache.entities.Company!['1'])).toEqual({
      id: '1', name: 'Acme', price: 100,
      pct_equity: ['1', 'pct_equity', 'Company'], shares: ['1', 'shares', 'Company'], sector: 's1',
    });
    expect(snapshot(state.cache.entities['Scalar(portfolio)']!['Company|1|A'])).toEqual({ pct_equity: 0.5, shares: 32342 });

    const a1 = cache.selectQuery(state, companyList, A)!;
    const b1 = cache.selectQuery(state, companyList, B)!;
    const a2 = cache.selectQuery(state, companyList, A)!;
    const b2 = cache.selectQuery(state, companyList, B)!;
    expect(a1.map(c => [c.name, c.pct_equity, c.shares])).toEqual([['Acme', 0.5, 32342], ['Globex', 0.2, 100]]);
    expect(b1.map(c => [c.name, c.pct_equity, c.shares])).toEqual([['Acme', 0.3, 323], ['Globex', undefined, undefined]]);
    expect(a2).toBe(a1);
    expect(b2).toBe(b1);
    expect(a2[0]).toBe(a1[0]);
    expect(b1[0]).not.toBe(a1[0]);
    expect(b1[0]!.sector).toBe(a1[0]!.sector);
  });
});

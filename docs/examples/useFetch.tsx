import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, RestEndpoint, Scalar, Values, type LensArgs } from 'lenscache';
import { CacheProvider, useFetch, useSuspense } from 'lenscache/react';
import { Suspense, useState } from 'react';
import { Provider } from 'react-redux';

export class Company extends Entity {
  id = '';
  name = '';
  pct_equity?: number; // undefined at a portfolio whose columns have not arrived
  static override key = 'Company';
}
export const PortfolioScalar = new Scalar({
  lens: (args: LensArgs<{ portfolio?: string }>) => args[0]?.portfolio,
  key: 'portfolio',
  entity: Company,
});
Company.schema = { pct_equity: PortfolioScalar };

export class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}

// One company list for every portfolio; each portfolio's columns on their own.
export const getCompanies = new RestEndpoint({
  path: '/companies',
  searchParams: {} as { portfolio: string },
  schema: new Collection([Company], { argsKey: () => ({}) }),
});
export const getPortfolioColumns = new RestEndpoint({
  path: '/companies/columns',
  searchParams: {} as { portfolio: string },
  schema: new Values(PortfolioScalar),
});
export const getPost = new RestEndpoint({ path: '/posts/:id', schema: Post });

export function CompanyTable({ portfolio }: { portfolio: string }) {
  // The list, with the first portfolio's values, is one request for every portfolio.
  const companies = useSuspense(getCompanies, { portfolio });
  // Other portfolios fetch only their columns; until they land, those fields are undefined.
  useFetch(getPortfolioColumns, portfolio === 'A' ? null : { portfolio });
  return (
    <table>
      <tbody>
        {companies.map(company => (
          <tr key={company.id}>
            <td>{company.name}</td>
            <td>{company.pct_equity ?? '…'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function PostLink({ id }: { id: string }) {
  const [hovered, setHovered] = useState(false);
  useFetch(getPost, hovered ? { id } : null); // prefetch on hover
  return (
    <a onMouseEnter={() => setHovered(true)} href={`/posts/${id}`}>
      open
    </a>
  );
}

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function App() {
  return (
    <Provider store={store}>
      <CacheProvider cache={cache}>
        <Suspense fallback={<p>Loading…</p>}>
          <CompanyTable portfolio="A" />
        </Suspense>
        <PostLink id="1" />
      </CacheProvider>
    </Provider>
  );
}

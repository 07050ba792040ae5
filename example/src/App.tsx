/** The example page: one panel per example of the spec, each reading the one cache. */
import { Suspense, use, useState, type FormEvent, type ReactNode } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import {
  AsyncBoundary,
  useCancelling,
  useController,
  useDebounce,
  useFetch,
  useInfinite,
  useLive,
  useMutation,
  useQuery,
  useStream,
  useSuspense,
  type ErrorViewProps,
} from 'lenscache/react';
import {
  adminCount,
  createPost,
  OPTIMISTIC,
  currentPrice,
  getBonds,
  getEvents,
  getCompanies,
  getCurrencyColumns,
  getLiveStats,
  getPortfolioColumns,
  getPosts,
  getStats,
  getUsers,
  postsByUser,
  searchPosts,
  serverMessage,
  sortedPosts,
  tickerStream,
  userCount,
  type Group,
  type OrderBy,
} from './api';
import type { AppDispatch, RootState } from './main';
import { PostDetail, postHref, useOpenPost } from './PostDetail';
import { loggedFetch, type LoggedRequest } from './requestLog';
import { logIn, session } from './session';

export const PORTFOLIOS = ['Growth', 'Income', 'Balanced', 'Index'];

export function App() {
  const loggedIn = useSelector((state: RootState) => state.session.token !== null);
  return (
    <main>
      <header>
        <h1>lenscache example</h1>
        <p>
          One normalized cache in a Redux store, read by every panel. Open Redux DevTools to see each write as one
          action.
        </p>
        {loggedIn && <SessionBar />}
      </header>
      {/* Logged out, the page reads nothing protected: the panels are not mounted. */}
      {loggedIn ? <Panels /> : <LoginForm />}
    </main>
  );
}

function LoginForm() {
  const dispatch = useDispatch<AppDispatch>();
  const [name, setName] = useState('Ann');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState('');
  // The last session request: a refused refresh means the session ended by itself.
  const ended = useSelector((state: RootState) => {
    const last = state.requests.filter(request => request.url.includes('/api/auth/')).at(-1);
    return last?.url.endsWith('/api/auth/refresh') === true && last.status === 401;
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError('');
    dispatch(logIn(loggedFetch, name, password)).catch((failure: Error) => {
      setError(failure.message);
      setPending(false);
    });
  };
  return (
    <form className="panel login" onSubmit={submit} data-testid="login">
      <h2>Log in</h2>
      {ended && (
        <p className="notice" role="status" data-testid="session-ended">
          Your session has ended: log in again.
        </p>
      )}
      <label>
        Name <input value={name} onChange={event => setName(event.target.value)} data-testid="login-name" />
      </label>
      <label>
        Password{' '}
        <input
          type="password"
          value={password}
          onChange={event => setPassword(event.target.value)}
          data-testid="login-password"
        />
      </label>
      <button disabled={pending} data-testid="login-submit">
        {pending ? 'Logging in…' : 'Log in'}
      </button>
      {error && (
        <p className="error" role="alert" data-testid="login-error">
          {error}
        </p>
      )}
      <p className="muted">Users: Ann, Bo, Cy, Dee; the password is “lenscache”.</p>
    </form>
  );
}

function SessionBar() {
  const dispatch = useDispatch<AppDispatch>();
  const controller = useController();
  const user = useSelector((state: RootState) => state.session.user);
  const logOut = () => {
    dispatch(session.actions.loggedOut());
    // Another user must not read this one's responses: the store starts empty.
    controller.resetEntireStore();
  };
  return (
    <p className="session" data-testid="session">
      Logged in as <strong data-testid="session-user">{user?.name}</strong>{' '}
      <button onClick={logOut} data-testid="logout">
        Log out
      </button>
    </p>
  );
}

function Panels() {
  const open = useOpenPost();
  return (
    <div className="grid">
      <Panel title="Posts, sorted" id="posts">
        <PostsPanel />
      </Panel>
      <Panel title="Post (optimistic edit and delete)" id="post">
        {open ? (
          <PostDetail key={`${open.group}/${open.id}`} group={open.group} id={open.id} />
        ) : (
          <p className="muted">Open a post from the list (click its title) to read, edit or delete it here.</p>
        )}
      </Panel>
      <Panel title="Search posts (debounced, cancelling)" id="search">
        <SearchPanel />
      </Panel>
      <Panel title="Users" id="users">
        <UsersPanel />
      </Panel>
      <Panel title="Ticker and stats (join, live)" id="ticker">
        <TickerPanel />
      </Panel>
      <Panel title="Stats, polled every 2 s (useLive)" id="polled">
        <PolledStats />
      </Panel>
      <Panel title="Companies by portfolio and currency (one Scalar per dimension)" id="companies" wide>
        <CompaniesPanel />
      </Panel>
      <Panel title="Bonds by portfolio, a page at a time (one list at every lens)" id="bonds" wide>
        <BondsPanel />
      </Panel>
      <Panel title="Timeline, both ways (three pages at most)" id="events" wide>
        <EventsPanel />
      </Panel>
      <Panel title="Session: login and token refresh" id="session" wide>
        <RequestLog of="/api/auth/" title="Session requests sent" testId="session-log">
          Every API request carries the token. When it has expired, the requests that meet the 401 wait for one refresh,
          shared by all of them, and are sent once more (the company and bond logs show their 401 and their second try).
          A refused refresh logs out.
        </RequestLog>
        <AnswerWrites />
      </Panel>
    </div>
  );
}

function Panel({ title, id, wide, children }: { title: string; id: string; wide?: boolean; children: ReactNode }) {
  return (
    <section className={wide ? 'panel wide' : 'panel'} data-testid={`panel-${id}`}>
      <h2>{title}</h2>
      {/* Suspense and an error boundary in one; its Try again fetches what failed again. */}
      <AsyncBoundary fallback={<p className="loading">Loading…</p>} errorComponent={ErrorView}>
        {children}
      </AsyncBoundary>
    </section>
  );
}

function ErrorView({ error, resetErrorBoundary }: ErrorViewProps) {
  return (
    <div role="alert" className="error">
      <p>{error.message.split('\n')[0]}</p>
      <button onClick={resetErrorBoundary}>Try again</button>
    </div>
  );
}

function PostsPanel() {
  const [group, setGroup] = useState<Group>('react');
  const [orderBy, setOrderBy] = useState<OrderBy>('title');
  return (
    <>
      <div className="controls">
        <label>
          Group{' '}
          <select value={group} onChange={event => setGroup(event.target.value as Group)} data-testid="group">
            <option value="react">react</option>
            <option value="vue">vue</option>
          </select>
        </label>
        <label>
          Order by{' '}
          <select value={orderBy} onChange={event => setOrderBy(event.target.value as OrderBy)} data-testid="order-by">
            <option value="title">title</option>
            <option value="createdAt">date</option>
          </select>
        </label>
      </div>
      <Suspense fallback={<p className="loading">Loading posts…</p>}>
        {/* Keyed: another group or order is another list, with its own pages. */}
        <PostList key={`${group}:${orderBy}`} group={group} orderBy={orderBy} />
      </Suspense>
      {/* Keyed: a create's state (its error) belongs to its group, so another group starts clean. */}
      <NewPost key={group} group={group} />
    </>
  );
}

function PostList({ group, orderBy }: { group: Group; orderBy: OrderBy }) {
  // The list, a page at a time: suspends for the first page, and loadMore appends the next one.
  // A refetch (on focus, once stale) fetches every page loaded, so the list keeps them all.
  const { loadMore, hasMore, loadingMore, error } = useInfinite(getPosts, { group, orderBy });
  // The whole list read sorted: pages and creates append to it, the Query sorts it again.
  const posts = useQuery(sortedPosts, { group, orderBy }) ?? [];
  return (
    <>
      <ol className="posts" data-testid="posts">
        {posts.map(post => (
          <li key={post.id} className={post.id.startsWith(OPTIMISTIC) ? 'pending' : undefined}>
            <strong>
              {post.id.startsWith(OPTIMISTIC) ? (
                post.title
              ) : (
                <a href={postHref({ group, id: post.id })}>{post.title}</a>
              )}
            </strong>{' '}
            <span className="muted">by {post.author.name}</span>
            {post.id.startsWith(OPTIMISTIC) && (
              <span className="muted" data-testid="pending">
                {' '}
                saving…
              </span>
            )}
          </li>
        ))}
      </ol>
      {hasMore && (
        <div className="controls">
          <button onClick={() => void loadMore()} disabled={loadingMore} data-testid="load-more">
            {loadingMore ? 'Loading…' : 'Load more'}
          </button>
          {error && <span className="error">{error.message.split('\n')[0]}</span>}
        </div>
      )}
    </>
  );
}

function NewPost({ group }: { group: Group }) {
  const [create, { pending, error }] = useMutation(createPost);
  const [title, setTitle] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // One POST. The post shows at once in every cached list of the group; the answer takes its
    // place with no refetch, and a refusal takes it back and shows the server's message.
    create({ group }, { title, author: 'u1' }).then(
      () => setTitle(''),
      () => undefined,
    );
  };
  return (
    <form onSubmit={submit} className="controls">
      <input
        value={title}
        onChange={event => setTitle(event.target.value)}
        placeholder={`New ${group} post title`}
        data-testid="new-title"
      />
      <button data-testid="create">{pending ? 'Saving…' : 'Create'}</button>
      {error && (
        <span className="error" role="alert" data-testid="create-error">
          {serverMessage(error)}
        </span>
      )}
    </form>
  );
}

function SearchPanel() {
  const [text, setText] = useState('');
  // The query follows the text once it has not changed for 200 ms.
  const [q, typing] = useDebounce(text, 200);
  return (
    <>
      <div className="controls">
        <input
          value={text}
          onChange={event => setText(event.target.value)}
          placeholder="Words in a title"
          data-testid="search"
        />
        {typing && <span className="muted"> …</span>}
      </div>
      <Suspense fallback={<p className="loading">Searching…</p>}>{q && <SearchResults q={q} />}</Suspense>
    </>
  );
}

function SearchResults({ q }: { q: string }) {
  // A search still in flight for a query typed past is aborted; coming back to it fetches it again.
  const posts = useSuspense(useCancelling(searchPosts, { q }), { q });
  if (posts.length === 0) return <p className="muted">No post has “{q}” in its title.</p>;
  return (
    <ul data-testid="search-results">
      {posts.map(post => (
        <li key={post.id}>
          {post.title} <span className="muted">({post.group})</span>
        </li>
      ))}
    </ul>
  );
}

function UsersPanel() {
  useSuspense(getUsers);
  const users = useQuery(userCount);
  const admins = useQuery(adminCount);
  const groups = useQuery(postsByUser) ?? [];
  return (
    <>
      <p data-testid="counts">
        {users} users, {admins} admins
      </p>
      <h3>Cached posts by author</h3>
      <dl className="by-user">
        {groups.map(([name, posts]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{posts.map(post => post.title).join(' · ')}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

function TickerPanel() {
  const [live, setLive] = useState(false);
  // The stream: server-sent ticker updates, each written into the cache as a Ticker row.
  useStream(live ? tickerStream : null);
  return (
    <>
      <label className="controls">
        <input type="checkbox" checked={live} onChange={event => setLive(event.target.checked)} data-testid="live" />{' '}
        live ticker stream
      </label>
      <table>
        <tbody>
          {['BTC', 'ETH'].map(product => (
            <Price key={product} product={product} />
          ))}
        </tbody>
      </table>
      <Suspense fallback={<p className="muted">…</p>}>
        <VolumeTotal />
      </Suspense>
    </>
  );
}

function VolumeTotal() {
  // Two reads in one component: both requests start in this render (useFetch never suspends),
  // then use() waits for each, with no waterfall (docs/useFetch.md, "Parallel reads with use()").
  const btc = useFetch(getStats, { product_id: 'BTC' });
  const eth = useFetch(getStats, { product_id: 'ETH' });
  const total = use(btc).volume + use(eth).volume;
  return (
    <p className="muted" data-testid="volume-total">
      volume of both {total.toLocaleString('en-US')}
    </p>
  );
}

function Price({ product }: { product: string }) {
  // Stats come by request; the ticker only from the stream. The join prefers the ticker.
  useFetch(getStats, { product_id: product });
  const price = useQuery(currentPrice, { product_id: product });
  return (
    <tr data-testid={`price-${product}`}>
      <th>{product}</th>
      <td>{price ? price.price.toLocaleString('en-US', { maximumFractionDigits: 2 }) : '…'}</td>
      <td className="muted">{price?.source}</td>
    </tr>
  );
}

function PolledStats() {
  return (
    <table>
      <tbody>
        {['BTC', 'ETH'].map(product => (
          <PolledRow key={product} product={product} />
        ))}
      </tbody>
    </table>
  );
}

function PolledRow({ product }: { product: string }) {
  // Suspends for the first answer, then the poller refetches every 2 s while this is mounted;
  // a poll with the same answer renders nothing. The stats rows are shared with the ticker panel.
  const stats = useLive(getLiveStats, { product_id: product });
  return (
    <tr data-testid={`polled-${product}`}>
      <th>{product}</th>
      <td>{stats.last.toLocaleString('en-US')}</td>
      <td className="muted">volume {stats.volume.toLocaleString('en-US')}</td>
    </tr>
  );
}

function PortfolioPicker({ value, onPick, testId }: { value: string; onPick: (name: string) => void; testId: string }) {
  return (
    <div className="controls" role="group" aria-label="Portfolio">
      {PORTFOLIOS.map(name => (
        <button key={name} aria-pressed={name === value} onClick={() => onPick(name)} data-testid={`${testId}-${name}`}>
          {name}
        </button>
      ))}
    </div>
  );
}

export const CURRENCIES = ['USD', 'EUR', 'JPY'];

function CompaniesPanel() {
  const [portfolio, setPortfolio] = useState(PORTFOLIOS[0]!);
  const [currency, setCurrency] = useState(CURRENCIES[0]!);
  return (
    <div className="companies">
      <div>
        <PortfolioPicker value={portfolio} onPick={setPortfolio} testId="portfolio" />
        <div className="controls" role="group" aria-label="Currency">
          {CURRENCIES.map(name => (
            <button
              key={name}
              aria-pressed={name === currency}
              onClick={() => setCurrency(name)}
              data-testid={`currency-${name}`}
            >
              {name}
            </button>
          ))}
        </div>
        <Suspense fallback={<p className="loading">Loading companies…</p>}>
          <CompanyTable portfolio={portfolio} currency={currency} />
        </Suspense>
      </div>
      <RequestLog of="/api/companies" title="Company requests sent" testId="request-log">
        Revisit a portfolio or a currency: nothing is added here. Each is a lens of its own, so a new currency fetches
        only prices, a new portfolio only holdings.
      </RequestLog>
    </div>
  );
}

/**
 * The params of the columns a lens lacks: `null` when every company has its values there, the lens
 * alone when none has (a lens never read), else the lens and the ids of those that lack them (a
 * company created at another lens).
 */
function lacking<T extends { id: string }, L extends object>(
  companies: readonly T[],
  field: (company: T) => unknown,
  lens: L,
): (L & { ids?: string }) | null {
  const ids = companies.filter(company => field(company) === undefined).map(company => company.id);
  if (ids.length === 0) return null;
  return ids.length === companies.length ? lens : { ...lens, ids: ids.join(',') };
}

function CompanyTable({ portfolio, currency }: { portfolio: string; currency: string }) {
  // One list for every portfolio and currency, fetched once at whichever was shown first...
  const companies = useSuspense(getCompanies, { portfolio, currency });
  // ...then each dimension fetches the columns its lens lacks (all of them at a new lens, none on a
  // revisit), without knowing which lens the list came with.
  useFetch(
    getPortfolioColumns,
    lacking(companies, company => company.pct_equity, { portfolio }),
  );
  useFetch(
    getCurrencyColumns,
    lacking(companies, company => company.price, { currency }),
  );
  return (
    <table data-testid="companies">
      <thead>
        <tr>
          <th>Company</th>
          <th>Sector</th>
          <th>Price</th>
          <th>% equity</th>
          <th>Shares</th>
        </tr>
      </thead>
      <tbody>
        {companies.map(company => (
          <tr key={company.id} data-testid={`company-${company.id}`}>
            <td>{company.name}</td>
            <td>{company.sector.name}</td>
            <td data-testid="price">{company.price === undefined ? '…' : `${company.price.toFixed(2)} ${currency}`}</td>
            <td data-testid="pct">
              {company.pct_equity === undefined ? '…' : `${(company.pct_equity * 100).toFixed(1)}%`}
            </td>
            <td data-testid="shares">{company.shares === undefined ? '…' : company.shares.toLocaleString('en-US')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function BondsPanel() {
  const [portfolio, setPortfolio] = useState(PORTFOLIOS[0]!);
  return (
    <div className="companies">
      <div>
        <PortfolioPicker value={portfolio} onPick={setPortfolio} testId="bond-portfolio" />
        <Suspense fallback={<p className="loading">Loading bonds…</p>}>
          <BondTable portfolio={portfolio} />
        </Suspense>
      </div>
      <RequestLog of="/api/bonds" title="Bond requests sent" testId="bond-log">
        A portfolio read for the first time asks for every page loaded, at that portfolio; so does a revisit after a
        page was loaded elsewhere. Otherwise a revisit adds nothing.
      </RequestLog>
    </div>
  );
}

function BondTable({ portfolio }: { portfolio: string }) {
  // The one list at this portfolio's values: the pages loaded at any portfolio are the list's,
  // so a new portfolio suspends while they are all fetched at it, and "Load more" goes on from there.
  const { data, loadMore, hasMore, loadingMore, error } = useInfinite(getBonds, { portfolio });
  return (
    <>
      <table data-testid="bonds">
        <thead>
          <tr>
            <th>Bond</th>
            <th>Coupon</th>
            <th>Weight</th>
            <th>Nominal</th>
          </tr>
        </thead>
        <tbody>
          {data.results.map(bond => (
            <tr key={bond.id} data-testid={`bond-${bond.id}`}>
              <td>{bond.name}</td>
              <td>{bond.coupon.toFixed(1)}%</td>
              <td data-testid="weight">{bond.weight === undefined ? '…' : `${(bond.weight * 100).toFixed(1)}%`}</td>
              <td data-testid="nominal">{bond.nominal === undefined ? '…' : bond.nominal.toLocaleString('en-US')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="controls">
        <span className="muted" data-testid="bonds-count">
          {data.results.length} of {data.total} bonds
        </span>
        {hasMore && (
          <button onClick={() => void loadMore()} disabled={loadingMore} data-testid="bonds-more">
            {loadingMore ? 'Loading…' : 'Load more'}
          </button>
        )}
        {error && <span className="error">{error.message.split('\n')[0]}</span>}
      </div>
    </>
  );
}

function EventsPanel() {
  return (
    <div className="companies">
      <Suspense fallback={<p className="loading">Loading events…</p>}>
        <Timeline />
      </Suspense>
      <RequestLog of="/api/events" title="Event requests sent" testId="events-log">
        The timeline opens in the middle and pages both ways, three pages at most: a page loaded at one end drops the
        page at the other. Back to the start fetches the first page alone.
      </RequestLog>
    </div>
  );
}

function Timeline() {
  const { data, loadMore, hasMore, loadPrevious, hasPrevious, loadingMore, loadingPrevious, refetch, error } =
    useInfinite(getEvents);
  return (
    <div>
      <div className="controls">
        <button
          onClick={() => void loadPrevious()}
          disabled={!hasPrevious || loadingPrevious}
          data-testid="events-earlier"
        >
          {loadingPrevious ? 'Loading…' : 'Earlier'}
        </button>
        <button onClick={() => void refetch({ firstPageOnly: true })} data-testid="events-start">
          Back to the start
        </button>
      </div>
      <ol data-testid="events">
        {data.results.map(event => (
          <li key={event.id}>{event.title}</li>
        ))}
      </ol>
      <div className="controls">
        <button onClick={() => void loadMore()} disabled={!hasMore || loadingMore} data-testid="events-later">
          {loadingMore ? 'Loading…' : 'Later'}
        </button>
        {error && <span className="error">{error.message.split('\n')[0]}</span>}
      </div>
    </div>
  );
}

/** The API's answers against the cache's write actions for them: bursts() joins those that arrive together. */
function AnswerWrites() {
  // Answered reads and saves (the session's own requests are not cache requests; a 401 that was
  // tried again is one answer, the second).
  const answers = useSelector(
    (state: RootState) =>
      state.requests.filter(
        request =>
          !pathOf(request.url).startsWith('/api/auth/') &&
          typeof request.status === 'number' &&
          request.status >= 200 &&
          request.status < 300,
      ).length,
  );
  const { updates, joined } = useSelector((state: RootState) => state.answerWrites);
  return (
    <p className="muted" data-testid="answer-writes">
      {answers} answers written in {updates} store updates, {joined} of them joined: with{' '}
      <code>
        bursts({'{'} window: 16 {'}'})
      </code>
      , the answers that arrive within 16 ms of a burst's first are one action.
    </p>
  );
}

function RequestLog({
  of,
  title,
  testId,
  children,
}: {
  of: string;
  title: string;
  testId: string;
  children: ReactNode;
}) {
  const requests = useSelector((state: RootState) => state.requests);
  const shown = requests.filter(request => pathOf(request.url).startsWith(of));
  return (
    <aside className="log">
      <h3>
        {title} ({shown.length})
      </h3>
      <ol data-testid={testId}>
        {shown.map(request => (
          <li key={request.n}>
            <code>
              {request.method} {decodeURIComponent(pathOf(request.url))}
            </code>{' '}
            <span className="muted">{statusText(request)}</span>
          </li>
        ))}
      </ol>
      <p className="muted">{children}</p>
    </aside>
  );
}

/** A URL of the page's origin as its path and query (`/api/auth/refresh`); any other, whole. */
function pathOf(url: string): string {
  const parsed = new URL(url, window.location.href);
  return parsed.origin === window.location.origin ? parsed.pathname + parsed.search : url;
}

function statusText(request: LoggedRequest): string {
  return request.status === 'pending' ? '…' : String(request.status);
}

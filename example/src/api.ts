/** The example's data model: entities, the lens-dependent Scalar, endpoints and queries. */
import {
  All,
  Collection,
  Entity,
  fromEventSource,
  NetworkError,
  Query,
  resource,
  RestEndpoint,
  Scalar,
  Values,
  type StreamOptions,
} from 'lenscache';

export class User extends Entity {
  id = '';
  name = '';
  isAdmin = false;
  static override key = 'User';
}

export class Post extends Entity {
  id = '';
  title = '';
  group = '';
  createdAt = '';
  author = User.fromJS();
  static override key = 'Post';
  static override schema = { author: User };
}

export class Ticker extends Entity {
  product_id = '';
  price = 0;
  time = '';
  override pk() {
    return this.product_id;
  }
  static override key = 'Ticker';
}

export class Stats extends Entity {
  product_id = '';
  last = 0;
  volume = 0;
  override pk() {
    return this.product_id;
  }
  static override key = 'Stats';
}

export class Sector extends Entity {
  id = '';
  name = '';
  static override key = 'Sector';
}

export class Company extends Entity {
  id = '';
  name = '';
  /** Currency-dependent: stored per currency in the other Scalar's cells. */
  price = 0;
  /** Portfolio-dependent: stored per portfolio in Scalar cells, not on the row. */
  pct_equity = 0;
  shares = 0;
  sector = Sector.fromJS();
  static override key = 'Company';
}

/** The lens is the `portfolio` param of the request. */
export const PortfolioScalar = new Scalar({
  lens: args => (args[0] as { portfolio?: string } | undefined)?.portfolio,
  key: 'portfolio',
  entity: Company,
});
/** The second dimension: the price depends on the `currency` param alone, so it has a Scalar of its own. */
export const CurrencyScalar = new Scalar({
  lens: args => (args[0] as { currency?: string } | undefined)?.currency,
  key: 'currency',
  entity: Company,
});
Company.schema = { pct_equity: PortfolioScalar, shares: PortfolioScalar, price: CurrencyScalar, sector: Sector };

/**
 * A bond of the universe every portfolio draws from: its weight and nominal are the portfolio's,
 * in the same Scalar as the Company's columns (its cells are `Bond|<id>|<portfolio>`).
 */
export class Bond extends Entity {
  id = '';
  name = '';
  coupon = 0;
  weight = 0;
  nominal = 0;
  static override key = 'Bond';
  static override schema = { weight: PortfolioScalar, nominal: PortfolioScalar };
}

/**
 * The bonds a page at a time, read at a portfolio: one list for every portfolio (`argsKey` leaves
 * the portfolio out), so its pages are the list's. A portfolio read for the first time fetches
 * every page the list holds, at that portfolio (docs/pagination.md, "A list read at several lenses").
 */
export const getBonds = new RestEndpoint({
  path: '/api/bonds',
  searchParams: {} as { portfolio: string },
  schema: {
    results: new Collection([Bond], { argsKey: () => ({}) }),
    nextCursor: null as string | null,
    total: 0,
  },
  paginationField: 'cursor',
});

/** An event of the timeline. */
export class TimelineEvent extends Entity {
  id = '';
  title = '';
  static override key = 'TimelineEvent';
}

/**
 * The timeline opens in the middle: its first page names the page before (`previousCursor`) and
 * the one after (`nextCursor`). It holds three pages at most: loading one at an end drops the page
 * at the other (docs/pagination.md, "At most maxPages").
 */
export const getEvents = new RestEndpoint({
  path: '/api/events',
  searchParams: {} as { cursor?: string },
  schema: {
    results: new Collection([TimelineEvent]),
    nextCursor: null as string | null,
    previousCursor: null as string | null,
  },
  paginationField: 'cursor',
  maxPages: 3,
});

export type Group = 'react' | 'vue';
export type OrderBy = 'title' | 'createdAt';

/**
 * A group's posts as a resource: its list pages by `cursor` (docs/resource.md, docs/pagination.md).
 * Its edit (`partialUpdate`, PATCH) and `delete` are optimistic: shown at once, taken back if refused.
 */
export const PostResource = resource({
  path: '/api/:group/posts/:id',
  schema: Post,
  searchParams: {} as { orderBy?: OrderBy },
  paginationField: 'cursor',
  optimistic: true,
});
/**
 * One list per group and order, served a page at a time as `{ results, nextCursor }`.
 * `getPosts.getPage` appends a page to the list; `getPosts.push` appends a create to every list
 * of its group.
 */
export const getPosts = PostResource.getList.extend({
  schema: { results: PostResource.getList.schema, nextCursor: null as string | null },
});
/** The id prefix of a post the server has not answered for yet. */
export const OPTIMISTIC = 'optimistic:';
/**
 * Creates a post, optimistically: the guess shows in every cached list of the group at once, the
 * server's answer takes its place, and a refusal (an empty title) takes it back.
 */
export const createPost = getPosts.push.extend({
  body: {} as { title: string; author: string },
  getOptimisticResponse: (snap, { group }: { group: Group }, body: { title: string; author: string }) => ({
    // A temporary id, marked so the list can show the post as "saving".
    id: `${OPTIMISTIC}${snap.fetchedAt}`,
    title: body.title,
    group,
    createdAt: new Date(snap.fetchedAt).toISOString(),
    author: snap.get(User, { id: body.author }) ?? { id: body.author },
  }),
});
export const getUsers = new RestEndpoint({ path: '/api/users', schema: new Collection([User]) });
/** Posts whose title holds `q`, from every group; a search with no answer in 10 s fails with TIMEOUT. */
export const searchPosts = new RestEndpoint({
  path: '/api/search',
  searchParams: {} as { q: string },
  schema: [Post],
  timeout: 10_000,
});
export const getTicker = new RestEndpoint({ path: '/api/tickers/:product_id', schema: Ticker });
export const getStats = new RestEndpoint({ path: '/api/stats/:product_id', schema: Stats });
/** The same request, refetched every 2 s while a component subscribes (useLive), retried on 5xx. */
export const getLiveStats = getStats.extend({
  pollFrequency: 2_000,
  retry: { attempts: 2, delay: attempt => 500 * attempt },
});
/** The server's ticker events, each written as a Ticker row (useStream). */
export const tickerStream: StreamOptions = { schema: Ticker, open: fromEventSource('/api/stream/tickers') };

/** One company list for every portfolio and currency: `argsKey` leaves both out of the list's key. */
export const getCompanies = new RestEndpoint({
  path: '/api/companies',
  searchParams: {} as { portfolio: string; currency: string },
  schema: new Collection([Company], { argsKey: () => ({}) }),
});
/** A portfolio's columns (of the companies `ids` names, else all): `{ [companyId]: { pct_equity, shares } }`. */
export const getPortfolioColumns = new RestEndpoint({
  path: '/api/companies/columns',
  searchParams: {} as { portfolio: string; ids?: string },
  schema: new Values(PortfolioScalar),
});
/** A currency's prices (of the companies `ids` names, else all): `{ [companyId]: { price } }`. */
export const getCurrencyColumns = new RestEndpoint({
  path: '/api/companies/prices',
  searchParams: {} as { currency: string; ids?: string },
  schema: new Values(CurrencyScalar),
});

/** The group's list sorted by `orderBy`: a create appends to the list, and this sorts it again. */
export const sortedPosts = new Query(getPosts.schema.results, (posts, { orderBy }: { orderBy?: OrderBy } = {}) =>
  orderBy ? [...posts].sort((a, b) => a[orderBy].localeCompare(b[orderBy])) : posts,
);
export const userCount = new Query(new All(User), users => users.length);
export const adminCount = new Query(new All(User), users => users.filter(user => user.isAdmin).length);
/** Every cached post, grouped by its author's name. */
export const postsByUser = new Query(new All(Post), posts => {
  const groups: Record<string, Post[]> = {};
  for (const post of posts) (groups[post.author.name] ??= []).push(post);
  return Object.entries(groups).sort(([a], [b]) => a.localeCompare(b));
});
/** The live ticker price when there is one, else the last traded price from the stats. */
export const currentPrice = new Query({ ticker: Ticker, stats: Stats }, ({ ticker, stats }) =>
  ticker
    ? { price: ticker.price, source: 'live ticker' }
    : stats
      ? { price: stats.last, source: 'daily stats' }
      : undefined,
);

/** What the server said went wrong (its JSON `message`), else the error's first line. */
export function serverMessage(error: Error): string {
  const said = error instanceof NetworkError ? (error.body as { message?: unknown } | null)?.message : undefined;
  return typeof said === 'string' ? said : error.message.split('\n')[0]!;
}

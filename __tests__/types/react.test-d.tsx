/** Type tests for lenscache/react: hook results are inferred from the endpoint or the queryable. */
import { All, Collection, Entity, Query, RestEndpoint, Scalar, type Controller } from '../../src/index';
import {
  useCache,
  useController,
  useDLE,
  useFetch,
  type UsablePromise,
  useLive,
  useMutation,
  useQuery,
  useSubscription,
  useSuspense,
} from '../../src/react/index';
import { expectType, type Equal } from './expect';

class User extends Entity {
  id = '';
  isAdmin = false;
}
class Post extends Entity {
  id = '';
  title = '';
  author = User.fromJS();
  static override schema = { author: User };
}
class Company extends Entity {
  id = '';
  pct_equity = 0;
}
const PortfolioScalar = new Scalar({
  lens: args => (args[0] as { portfolio: string }).portfolio,
  key: 'portfolio',
  entity: Company,
});
Company.schema = { pct_equity: PortfolioScalar };

const getPosts = new RestEndpoint({
  path: '/:group/posts',
  searchParams: {} as { orderBy?: 'title' },
  schema: new Collection([Post]),
});
const getPost = new RestEndpoint({ path: '/posts/:id', schema: Post });
const getRaw = new RestEndpoint({ path: '/raw' });
const getCompanies = new RestEndpoint({
  path: '/companies',
  searchParams: {} as { portfolio: string },
  schema: new Collection([Company], { argsKey: () => ({}) }),
});
const userCount = new Query(new All(User), users => users.length);
const sortedPosts = new Query(getPosts.schema, (posts, { orderBy }: { orderBy?: 'title' } = {}) =>
  orderBy ? [...posts].sort() : posts,
);

export function Component({ portfolio }: { portfolio: string }) {
  const posts = useSuspense(getPosts, { group: 'react' });
  expectType<Equal<typeof posts, Post[]>>(true);
  const post = useSuspense(getPost, { id: '1' });
  expectType<Equal<typeof post, Post>>(true);
  const raw = useSuspense(getRaw);
  expectType<Equal<typeof raw, unknown>>(true);
  // null params skip: the result may be undefined.
  const maybe = useSuspense(getPost, portfolio ? { id: portfolio } : null);
  expectType<Equal<typeof maybe, Post | undefined>>(true);
  const companies = useSuspense(getCompanies, { portfolio });
  expectType<Equal<typeof companies, Company[]>>(true);
  // @ts-expect-error the path param is required
  useSuspense(getPost, {});
  // @ts-expect-error params are typed
  useSuspense(getPosts, { group: 'react', orderBy: 'date' });

  const columns = useFetch(getCompanies, portfolio === 'A' ? null : { portfolio });
  expectType<Equal<typeof columns, UsablePromise<Company[]> | undefined>>(true);
  // Params that are never null: a promise to give to use().
  const always = useFetch(getCompanies, { portfolio });
  expectType<Equal<typeof always, UsablePromise<Company[]>>>(true);
  const cached = useCache(getPost, { id: '1' });
  expectType<Equal<typeof cached, Post | undefined>>(true);

  const count = useQuery(userCount);
  expectType<Equal<typeof count, number | undefined>>(true);
  const sorted = useQuery(sortedPosts, { group: 'react', orderBy: 'title' });
  expectType<Equal<typeof sorted, Post[] | undefined>>(true);
  const user = useQuery(User, 'u1');
  expectType<Equal<typeof user, User | undefined>>(true);

  const controller = useController();
  expectType<Equal<typeof controller, Controller<string>>>(true);
  return null;
}

export function Mutations() {
  const createPost = new RestEndpoint({ path: '/posts', method: 'POST', schema: Post });
  // @ts-expect-error mutations are not read by hooks (MUTATION_IN_HOOK)
  useSuspense(createPost, {});
  // @ts-expect-error a collection's create is a mutation too
  useFetch(getPosts.push, { group: 'react' });
  expectType<Equal<typeof createPost.sideEffect, true>>(true);
  expectType<Equal<typeof getPost.sideEffect, false>>(true);
  return null;
}

export function Live({ id }: { id: string | null }) {
  const getLivePost = getPost.extend({ pollFrequency: 1_000, retry: { attempts: 2 } });
  const post = useLive(getLivePost, { id: '1' });
  expectType<Equal<typeof post, Post>>(true);
  const maybe = useLive(getLivePost, id === null ? null : { id });
  expectType<Equal<typeof maybe, Post | undefined>>(true);
  const nothing = useSubscription(getLivePost, id === null ? null : { id });
  expectType<Equal<typeof nothing, void>>(true);
  // @ts-expect-error the path param is required
  useSubscription(getLivePost, {});
  // @ts-expect-error mutations cannot be subscribed to
  useLive(getPosts.push, { group: 'react' });
  // @ts-expect-error retry needs attempts
  getPost.extend({ retry: { delay: () => 1 } });
  return null;
}

export function MutationHooks() {
  const updatePost = new RestEndpoint({
    path: '/posts/:id',
    method: 'PATCH',
    body: {} as { title: string },
    schema: Post,
    getOptimisticResponse: (snap, params: { id: string }, body: { title: string }) => ({
      ...snap.get(Post, params),
      ...body,
    }),
  });
  const [update, { pending, error, data, reset }] = useMutation(updatePost);
  expectType<Equal<Parameters<typeof update>, Parameters<typeof updatePost.fetch>>>(true);
  expectType<Equal<ReturnType<typeof update>, Promise<Post>>>(true);
  expectType<Equal<typeof pending, boolean>>(true);
  expectType<Equal<typeof error, Error | undefined>>(true);
  expectType<Equal<typeof data, Post | undefined>>(true);
  expectType<Equal<typeof reset, () => void>>(true);
  void update({ id: '1' }, { title: 'x' });
  // @ts-expect-error the path param is required
  void update({}, { title: 'x' });
  // @ts-expect-error the body is typed
  void update({ id: '1' }, { title: 1 });
  const [create, { data: created }] = useMutation(getPosts.push);
  expectType<Equal<ReturnType<typeof create>, Promise<Post | Post[]>>>(true);
  // Each call reads back in the shape it sent: one object in, one item out; a list in, a list out.
  const one = create({ group: 'react' }, { title: 'x' });
  expectType<Equal<typeof one, Promise<Post>>>(true);
  const many = create({ group: 'react' }, [{ title: 'x' }, { title: 'y' }]);
  expectType<Equal<typeof many, Promise<Post[]>>>(true);
  const first = useMutation(getPosts.unshift)[0]({ group: 'react' }, { title: 'x' });
  expectType<Equal<typeof first, Promise<Post>>>(true);
  // The state holds whichever call came last; a body type of one object makes it one item.
  expectType<Equal<typeof created, Post | Post[] | undefined>>(true);
  const [, { data: createdOne }] = useMutation(getPosts.push.extend({ body: {} as { title: string } }));
  expectType<Equal<typeof createdOne, Post | undefined>>(true);
  // @ts-expect-error the params are checked before the body's shape is
  void create({ group: 'react', page: 2 }, { title: 'x' });

  const dle = useDLE(getPosts, { group: 'react' });
  expectType<Equal<typeof dle.data, Post[] | undefined>>(true);
  expectType<Equal<typeof dle.loading, boolean>>(true);
  expectType<Equal<typeof dle.error, Error | undefined>>(true);
  const skipped = useDLE(getPost, pending ? null : { id: '1' });
  expectType<Equal<typeof skipped.data, Post | undefined>>(true);
  // @ts-expect-error params are typed
  useDLE(getPosts, { group: 'react', orderBy: 'date' });
  // @ts-expect-error mutations are not read by useDLE
  useDLE(updatePost, { id: '1' });

  // A download is not stored: no hook reads it; useMutation sends it and types its answer.
  const download = new RestEndpoint({ path: '/files/:id', content: 'blob' });
  // @ts-expect-error a download is never read from the store
  useSuspense(download, { id: '1' });
  const [save, { data: saved }] = useMutation(download);
  expectType<Equal<ReturnType<typeof save>, Promise<Blob>>>(true);
  expectType<Equal<typeof saved, Blob | undefined>>(true);
  return null;
}

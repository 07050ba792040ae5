// Type-checked by scripts/check-package.sh against the installed tarball under tsconfig.strict.json:
// `strict`, `exactOptionalPropertyTypes` and `noUncheckedIndexedAccess`, as a new app's settings
// often are. It uses what an app uses (RestEndpoint, resource(), the hooks, cache.fetch, the
// Controller, a Scalar, a Collection's push) and asserts the inferred types, so an endpoint that
// no longer fits a hook, or a type that resolves to `any`, fails the check.
import { configureStore } from '@reduxjs/toolkit';
import {
  Collection,
  createCache,
  Entity,
  isNetworkError,
  resource,
  RestEndpoint,
  Scalar,
  type FetchPromise,
  type LensArgs,
} from 'lenscache';
import { CacheProvider, useDLE, useMutation, useQuery, useSuspense } from 'lenscache/react';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(value: T): T {
  return value;
}

class User extends Entity {
  id = '';
  name = '';
  static override key = 'User';
}

class Repo extends Entity {
  id = '';
  name = '';
  starred = false;
  owner = User.fromJS();
  static override key = 'Repo';
  declare static schema: { starred: Scalar; owner: typeof User };
}

const StarScalar = new Scalar({
  lens: (args: LensArgs<{ user?: string }>) => args[0]?.user,
  key: 'star',
  entity: Repo,
});
Repo.schema = { starred: StarScalar, owner: User };

const cache = createCache({ gcTime: 60_000 });
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

const maybeExpiry: number | undefined = undefined;
const getRepos = new RestEndpoint({
  path: '/:org/repos',
  searchParams: {} as { user?: string | undefined; sort?: 'name' | 'stars' },
  schema: { results: new Collection([Repo]), total: 0 },
  dataExpiryLength: maybeExpiry,
});
const getRepo = new RestEndpoint({ path: '/repos/:id', schema: Repo, urlPrefix: undefined });
const createRepo = getRepos.push.extend({ body: {} as { name: string } });
const RepoResource = resource({ path: '/:org/repos/:id', schema: Repo, optimistic: true });

// cache.fetch and the Controller: results typed from the schema.
const list = store.dispatch(cache.fetch(getRepos, { org: 'lens', user: undefined }));
expectType<Equal<typeof list, FetchPromise<Awaited<typeof list>>>>(true);
void list.then(page => {
  expectType<Equal<typeof page.total, number>>(true);
  const first = page.results[0];
  expectType<Equal<typeof first, (typeof page.results)[number] | undefined>>(true);
  const starred: boolean | undefined = first?.starred;
  return starred;
});
const created = store.dispatch(cache.fetch(createRepo, { org: 'lens' }, { name: 'new' }));
void created.then(repo => repo.name.toUpperCase());
const controller = cache.controller(store);
void controller.fetch(getRepo, { id: '1' }).then(repo => repo.owner.name);
const response = controller.getResponse(getRepo, { id: '1' });
expectType<Equal<typeof response.expiryStatus, 'valid' | 'stale' | 'invalid'>>(true);
controller.invalidate(getRepo, { id: '1' });
controller.invalidateAll({ testKey: key => key.startsWith('GET /repos') });
void controller.fetch(RepoResource.partialUpdate, { org: 'lens', id: '1' }, { name: 'renamed' });
// @ts-expect-error a key the endpoint does not take
void controller.fetch(getRepo, { id: '1', org: 'lens' });

// Hooks: only type-checked here, never called.
export function RepoList({ org, user }: { org: string; user: string }) {
  const page = useSuspense(getRepos, { org, user });
  const one = useSuspense(getRepo, { id: '1' });
  const { data, loading, error } = useDLE(RepoResource.get, { org, id: '1' });
  const cached = useQuery(Repo, '1');
  const [create, { data: last }] = useMutation(RepoResource.getList.push);
  const [createOne, { data: createdOne }] = useMutation(createRepo);
  expectType<Equal<typeof page.total, number>>(true);
  expectType<Equal<typeof one.starred, boolean | undefined>>(true);
  expectType<Equal<typeof createdOne, (typeof page.results)[number] | undefined>>(true);
  expectType<Equal<typeof last, (typeof page.results)[number] | (typeof page.results)[number][] | undefined>>(true);
  const add = () =>
    create({ org }, { name: 'x' }).then(repo => {
      expectType<Equal<typeof repo, (typeof page.results)[number]>>(true);
      return createOne({ org }, { name: 'y' });
    });
  const message = isNetworkError(error, isRefusal) ? error.body.message : error?.message;
  return [page.results.length, one.name, data?.name, loading, cached?.name, add, message, CacheProvider];
}

function isRefusal(body: unknown): body is { message: string } {
  return typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string';
}

/** Type tests, checked by `npm run typecheck`: schemas give their read and stored types. */
import {
  All,
  Collection,
  Query,
  Scalar,
  type LensArgs,
  createCache,
  Entity,
  type Invalidate,
  Lazy,
  Union,
  Values,
  type Denormalize,
  type Normalize,
  type PolymorphicRef,
} from '../../src/index';
import { expectType, type Equal } from './expect';

class User extends Entity {
  id = '';
  name = '';
}
class Group extends Entity {
  id = '';
  title = '';
}
class Post extends Entity {
  id = '';
  title = '';
  author = User.fromJS();
  createdAt = new Date(0);
  static override schema = { author: User, createdAt: Date };
}

expectType<Equal<Denormalize<typeof Post>, Post>>(true);
expectType<Equal<Denormalize<(typeof Post)[]>, Post[]>>(true);
expectType<Equal<Denormalize<[typeof Post]>, Post[]>>(true);
expectType<Equal<Denormalize<All<typeof User>>, User[]>>(true);
expectType<Equal<Denormalize<Values<typeof User>>, Record<string, User>>>(true);
expectType<Equal<Denormalize<Union<{ users: typeof User; groups: typeof Group }>>, User | Group>>(true);
// Invalidate reads back like the schema it deletes.
expectType<Equal<Denormalize<Invalidate<typeof User>>, User>>(true);
expectType<
  Equal<
    Denormalize<{ post: typeof Post; users: (typeof User)[]; total: number }>,
    { post: Post; users: User[]; total: number }
  >
>(true);
expectType<Equal<Denormalize<DateConstructor>, Date>>(true);

expectType<Equal<Normalize<typeof Post>, string>>(true);
expectType<Equal<Normalize<[typeof Post]>, string[]>>(true);
expectType<Equal<Normalize<Values<typeof User>>, Record<string, string>>>(true);
expectType<Equal<Normalize<Union<{ users: typeof User }>>, PolymorphicRef>>(true);
expectType<Equal<Normalize<All<typeof User>>, undefined>>(true);
expectType<Equal<Normalize<{ post: typeof Post; n: number }>, { post: string; n: number }>>(true);

// Constructed schemas keep their member types.
const members = new Union({ users: User, groups: Group }, 'type');
expectType<Equal<Denormalize<typeof members>, User | Group>>(true);
const everyUser = new All(User);
expectType<Equal<Denormalize<typeof everyUser>, User[]>>(true);
const lazyPosts = new Lazy(() => [Post]);
expectType<Equal<Denormalize<typeof lazyPosts>, string[]>>(true);
expectType<Equal<Denormalize<typeof lazyPosts.query>, Post[]>>(true);

// Reads are typed from the schema, and may be undefined.
const cache = createCache();
declare const rootState: unknown;
const post = cache.selectQuery(rootState, Post, '1');
expectType<Equal<typeof post, Post | undefined>>(true);
const users = cache.selectQuery(rootState, everyUser);
expectType<Equal<typeof users, User[] | undefined>>(true);

// selectResponse's data is typed from the endpoint's schema.
const getPost = { key: (params: { id: string }) => `GET /posts/${params.id}`, schema: Post };
const response = cache.selectResponse(rootState, getPost, { id: '1' });
expectType<Equal<typeof response.data, Post | undefined>>(true);
// @ts-expect-error: args are typed from the endpoint's key()
cache.selectResponse(rootState, getPost, { wrong: 1 });

// Collections read as lists (or maps), their ops as the items they wrote.
const postList = new Collection([Post], { argsKey: ({ group }: { group: string }) => ({ group }) });
const userMap = new Collection(new Values(User));
const memberList = new Collection([new Union({ users: User, groups: Group }, 'type')]);
expectType<Equal<Denormalize<typeof postList>, Post[]>>(true);
expectType<Equal<Denormalize<typeof userMap>, Record<string, User>>>(true);
expectType<Equal<Denormalize<typeof memberList>, (User | Group)[]>>(true);
// One item sent reads back as that item, a list as a list.
expectType<Equal<Denormalize<typeof postList.push>, Post | Post[]>>(true);
expectType<Equal<Denormalize<typeof postList.remove>, Post | Post[]>>(true);
expectType<Equal<Denormalize<typeof userMap.assign>, Record<string, User>>>(true);
expectType<Equal<Normalize<typeof postList>, string>>(true);
const reactPosts = cache.selectQuery(rootState, postList, { group: 'react' });
expectType<Equal<typeof reactPosts, Post[] | undefined>>(true);

// Query results are typed from process; its input from the queryable.
const userCount = new Query(new All(User), users => users.length);
const count = cache.selectQuery(rootState, userCount);
expectType<Equal<typeof count, number | undefined>>(true);
const sorted = new Query(postList, (entries, { orderBy }: { orderBy?: 'title' } = {}) => {
  expectType<Equal<typeof entries, Post[]>>(true);
  return orderBy ? [...entries].sort((a, b) => a[orderBy].localeCompare(b[orderBy])) : entries;
});
expectType<Equal<Denormalize<typeof sorted>, Post[]>>(true);
const join = new Query({ user: User, group: Group }, ({ user, group }) => {
  expectType<Equal<typeof user, User | undefined>>(true);
  return user?.name ?? group?.title;
});
const joined = cache.selectQuery(rootState, join, { id: '1' });
expectType<Equal<typeof joined, string | undefined>>(true);

// Scalar: a root read returns the lens's cells; as a member, one cell.
const lensScalar = new Scalar<{ pct: number }, { portfolio?: string }>({
  lens: args => args[0]?.portfolio,
  key: 'portfolio',
  entity: User,
});
const cells = cache.selectQuery(rootState, lensScalar, { portfolio: 'A' });
expectType<Equal<typeof cells, { pct: number }[] | undefined>>(true);
expectType<Equal<Denormalize<Values<typeof lensScalar>>, Record<string, { pct: number }>>>(true);
const cellCount = new Query(lensScalar, entries => entries.length);
expectType<Equal<Denormalize<typeof cellCount>, number>>(true);

// A lens's args are typed: `args[0]` is the params object (a tuple, not `any[]`), its values any
// until the lens names them, so the short form compiles.
new Scalar({
  lens: args => {
    expectType<Equal<typeof args, LensArgs>>(true);
    expectType<Equal<(typeof args)[0], { readonly [name: string]: any } | undefined>>(true);
    return undefined;
  },
  key: 'portfolio',
});
new Scalar({ lens: args => args[0]?.portfolio, key: 'portfolio' });
const typedLens = new Scalar({
  lens: (args: LensArgs<{ portfolio?: string }>) => args[0]?.portfolio,
  key: 'portfolio',
});
expectType<Equal<Parameters<typeof typedLens.lens>[0], LensArgs<{ portfolio?: string }>>>(true);
// @ts-expect-error a named param is checked: `portfolio` is a string here
new Scalar({ lens: (args: LensArgs<{ portfolio?: string }>) => args[0]?.portfolo, key: 'portfolio' });
// @ts-expect-error a lens is a string
new Scalar({ lens: (args: LensArgs<{ portfolio?: number }>) => args[0]?.portfolio, key: 'portfolio' });

// Scalar fields read undefined until a cell arrives for the lens: typed so wherever the class's
// schema type names the Scalar (declared in the class), in every read of the class.
class Repo extends Entity {
  id = '';
  name = '';
  starred = false;
  static override schema = { starred: typedLens };
}
class Holding extends Entity {
  id = '';
  shares = 0;
  declare static schema: { shares: Scalar };
}
Holding.schema = { shares: new Scalar({ lens: typedLens.lens, key: 'portfolio', entity: Holding }) };
expectType<Equal<Denormalize<typeof Repo>['starred'], boolean | undefined>>(true);
expectType<Equal<Denormalize<typeof Repo>['name'], string>>(true);
expectType<Equal<Denormalize<typeof Holding>['shares'], number | undefined>>(true);
const repos = cache.selectQuery(rootState, new Collection([Repo]), {});
expectType<Equal<NonNullable<typeof repos>[number]['starred'], boolean | undefined>>(true);
const holdings = cache.selectQuery(rootState, new All(Holding));
expectType<Equal<NonNullable<typeof holdings>[number]['shares'], number | undefined>>(true);
const repo = cache.selectQuery(rootState, Repo, '1')!;
// @ts-expect-error a Scalar field may be undefined
export const starred: boolean = repo.starred;
// Methods and other fields are the class's; a class without Scalar fields reads as itself.
expectType<Equal<typeof repo.pk, Repo['pk']>>(true);
expectType<Equal<Denormalize<typeof Post>, Post>>(true);

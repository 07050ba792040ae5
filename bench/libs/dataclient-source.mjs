// data-client built from its source (0.18 when this was written): @data-client/normalizr's
// normalize / denormalize / MemoCache with @data-client/endpoint's schemas (Entity, All, Query,
// Scalar, Values). Reads go through one MemoCache (its denormalize and query methods), the way
// data-client's Controller reads. Build it first (bench/build-dataclient.mjs), then pass this
// module to the bench with --extra, with DATA_CLIENT_BUILD naming the build's folder.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeColumns } from '../data.mjs';
import { models } from '../models.mjs';

const folder = resolve(process.env.DATA_CLIENT_BUILD ?? '/tmp/dataclient-build');
const load = file =>
  import(pathToFileURL(resolve(folder, file)).href).catch(error => {
    throw new Error(
      `bench/libs/dataclient-source.mjs: no data-client build in ${folder} (${error.message}). ` +
        'Build one with `node bench/build-dataclient.mjs <checkout> <folder>` and set DATA_CLIENT_BUILD to the folder.',
    );
  });
const { All, Entity, Query, Scalar, Values } = await load('endpoint.mjs');
const { denormalize, MemoCache, normalize } = await load('normalizr.mjs');

export const name = 'data-client 0.18 (source)';

const { User, Post, sorted, count, groupBy, LensPost, lensScalar } = models({ All, Entity, Query, Scalar });
const listSchema = [Post];
const lensListSchema = [LensPost];
const columnsSchema = new Values(lensScalar);

const emptyStore = () => ({ entities: {}, indexes: {}, entitiesMeta: {}, result: [] });
// Same action meta as the 0.10 adapter (what the data-client reducer passes for a fetch).
const meta = () => {
  const now = Date.now();
  return { date: now, fetchedAt: now, expiresAt: now + 60000 };
};

export function create() {
  let store = emptyStore();
  let memo = new MemoCache();
  let list = listSchema; // the schema of the stored list: [Post], or [LensPost] after writeLensList

  /** normalize into the existing store; keepResult: an entity write does not replace the list's result. */
  const put = (schema, input, args, keepResult) => {
    const normalized = normalize(schema, input, args, store, meta());
    store = keepResult ? { ...normalized, result: store.result } : normalized;
  };

  return {
    write(response) {
      store = emptyStore();
      list = listSchema;
      put(listSchema, response, [], false);
    },
    rewrite(response) {
      put(list, response, [], false);
    },
    read: () => memo.denormalize(list, store.result, store.entities, []).data,
    denormalize: () => denormalize(list, store.result, store.entities, []),
    resetMemo() {
      memo = new MemoCache();
    },
    updatePost(id, title) {
      put(Post, { id, title }, [], true);
    },
    updateUser(id, name) {
      put(User, { id, name }, [], true);
    },
    sorted: () => memo.query(sorted, [], store).data,
    count: () => memo.query(count, [], store).data,
    groupBy: () => memo.query(groupBy, [], store).data,
    writeLensList(response) {
      store = emptyStore();
      list = lensListSchema;
      // data-client reads a Scalar field only through the marker its list write leaves in the row,
      // so the list carries the first lens's columns (as data-client's own Scalar examples do).
      const first = makeColumns(response.length, 'L0');
      put(
        lensListSchema,
        response.map(post => ({ ...post, ...first[post.id] })),
        [{ lens: 'L0' }],
        false,
      );
    },
    writeColumns(lens, columns) {
      put(columnsSchema, columns, [{ lens }], true);
    },
    updateCell(lens, id, score) {
      put(columnsSchema, { [id]: { score } }, [{ lens }], true);
    },
    denormalizeLens: lens => denormalize(lensListSchema, store.result, store.entities, [{ lens }]),
    readLens: lens => memo.denormalize(lensListSchema, store.result, store.entities, [{ lens }]).data,
  };
}

/**
 * The exported read without a memo: it reads what selectQuery reads, builds new objects on every
 * call, takes a slice restored from JSON, and refuses what is not a slice with a coded error.
 */
import { Collection, denormalize, Entity, Invalidate, Scalar } from '../../src/index';
import { makeStore, snapshot } from '../fixtures/store';
import { Post } from '../fixtures/schemas';

const getPosts = { key: () => 'GET /posts', schema: new Collection([Post]) };
const deletePost = { key: (id: string) => `DELETE /posts/${id}`, schema: new Invalidate(Post) };

function filled() {
  const { cache, store } = makeStore();
  store.dispatch(
    cache.setResponse(getPosts, [
      { id: '1', title: 'One', author: { id: 'u1', name: 'Ann' }, comments: [] },
      {
        id: '2',
        title: 'Two',
        author: { id: 'u1', name: 'Ann' },
        comments: [{ id: 'c1', body: 'Hi', author: { id: 'u2', name: 'Bo' } }],
      },
    ]),
  );
  return { cache, store, slice: () => store.getState().cache };
}

test('reads the stored result as selectQuery does, with new objects on every call', () => {
  const { cache, store, slice } = filled();
  const stored = slice().endpoints[getPosts.key()];
  const first = denormalize(getPosts.schema, stored, [], slice());
  const second = denormalize(getPosts.schema, stored, [], slice());
  expect(first).toEqual(cache.selectQuery(store.getState(), getPosts.schema));
  expect(first![0]).toBeInstanceOf(Post);
  expect(second).toEqual(first);
  expect(second).not.toBe(first);
  expect(second![0]).not.toBe(first![0]);
  // Within one call, one row is one object: Ann wrote both posts.
  expect(first![0]!.author).toBe(first![1]!.author);
});

test('a slice restored from JSON reads the same, and prototype names are never rows', () => {
  const { slice } = filled();
  const restored = snapshot(slice()) as ReturnType<typeof slice>;
  const stored = restored.endpoints[getPosts.key()];
  expect(denormalize(getPosts.schema, stored, [], restored)).toEqual(
    denormalize(getPosts.schema, slice().endpoints[getPosts.key()], [], slice()),
  );
  expect(denormalize(Post, 'constructor', [], restored)).toBeUndefined();
  expect(denormalize(Post, 'toString', [], restored)).toBeUndefined();
});

test('a deleted or missing entity reads as undefined, and is dropped from lists', () => {
  const { cache, store, slice } = filled();
  store.dispatch(cache.setResponse(deletePost, '1', { id: '1' }));
  expect(denormalize(Post, '1', [], slice())).toBeUndefined();
  expect(denormalize(Post, 'nope', [], slice())).toBeUndefined();
  const list = denormalize(getPosts.schema, slice().endpoints[getPosts.key()], [], slice());
  expect(list!.map(post => post.id)).toEqual(['2']);
  expect(denormalize(getPosts.schema, undefined, [], slice())).toBeUndefined();
});

test('Scalar fields read under the lens the args give', () => {
  class Stock extends Entity {
    id = '';
    price = 0;
    static override key = 'Stock';
  }
  const price = new Scalar({
    lens: args => (args[0] as { currency?: string } | undefined)?.currency,
    key: 'price',
    entity: Stock,
  });
  Stock.schema = { price };
  const getStock = { key: (p: { currency: string }) => `GET /stock?${p.currency}`, schema: Stock };
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getStock, { currency: 'EUR' }, { id: 's', price: 10 }));
  store.dispatch(cache.setResponse(getStock, { currency: 'USD' }, { id: 's', price: 11 }));
  const slice = store.getState().cache;
  expect(denormalize(Stock, 's', [{ currency: 'EUR' }], slice)?.price).toBe(10);
  expect(denormalize(Stock, 's', [{ currency: 'USD' }], slice)?.price).toBe(11);
});

test('what is not a cache slice is refused with a coded error that says what to pass', () => {
  for (const bad of [undefined, null, 42, {}, { entities: [] }]) {
    expect(() => denormalize(Post, '1', [], bad as never)).toThrow(
      expect.objectContaining({
        code: 'CACHE_NOT_MOUNTED',
        message: expect.stringContaining('store.getState().cache'),
      }),
    );
  }
});

/**
 * Reads through `cache.selectQuery` (the construct pages in docs/, and docs/store.md): what comes back
 * for present, missing and deleted data, in every queryable shape.
 */
import { All, Invalidate, Values } from '../../src/index';
import { Comment, Post, User } from '../fixtures/schemas';
import {
  Article,
  Building,
  Cat,
  Department,
  Dog,
  Event,
  Group,
  Member,
  Person,
  Pets,
  Report,
  Stats,
  Ticker,
  TickerJoin,
} from '../fixtures/readSchemas';
import { makeStore } from '../fixtures/store';

function setup() {
  const { cache, store } = makeStore();
  const write = (schema: unknown, value: unknown) => store.dispatch(cache.set(schema, value));
  const read = <S>(schema: S, ...args: unknown[]) => cache.selectQuery(store.getState(), schema, ...args);
  return { cache, store, write, read };
}

describe('Entity reads', () => {
  test('by pk string, number and object args', () => {
    const { write, read } = setup();
    write(User, { id: '1', name: 'Ada' });
    write(User, { id: 7, name: 'Seven' });

    const byString = read(User, '1');
    expect(byString).toEqual(expect.objectContaining({ id: '1', name: 'Ada' }));
    expect(read(User, { id: '1' })).toBe(byString);
    expect(read(User, 1)).toBe(byString);

    const seven = read(User, 7);
    expect(seven?.name).toBe('Seven');
    // The row keeps the original field type.
    expect(seven?.id).toBe(7);
    expect(read(User, '7')).toBe(seven);
    expect(read(User, { id: 7 })).toBe(seven);
  });

  test('a missing row reads as undefined, and so do unusable pks', () => {
    const { write, read } = setup();
    expect(read(User, '1')).toBeUndefined();
    write(User, { id: '1', name: 'Ada' });
    expect(read(User, '2')).toBeUndefined();
    expect(read(User, { id: '2' })).toBeUndefined();
    expect(read(User, '')).toBeUndefined();
    expect(read(User, undefined)).toBeUndefined();
    expect(read(User)).toBeUndefined();
  });

  test('a tombstone reads as undefined', () => {
    const { cache, store, write, read } = setup();
    write(User, { id: '1', name: 'Ada' });
    expect(read(User, '1')).toBeDefined();
    write(new Invalidate(User), '1');
    expect(store.getState()[cache.reducerPath].entities['User']?.['1']).toBeNull();
    expect(read(User, '1')).toBeUndefined();
    expect(read(User, { id: '1' })).toBeUndefined();
  });

  test('`null` as the only argument reads as undefined', () => {
    const { write, read } = setup();
    write(User, { id: 'null', name: 'Called null' });
    write(Post, { id: 'p1', title: 'T', author: 'null' });
    expect(read(User, null)).toBeUndefined();
    expect(read(new All(User), null)).toBeUndefined();
    expect(read(TickerJoin, null)).toBeUndefined();
  });

  test('instances are instanceof the class, filled from initialisers, and frozen in development', () => {
    const { write, read } = setup();
    write(Post, { id: 'p1', author: { id: 'u1' } });
    const post = read(Post, 'p1');
    expect(process.env.NODE_ENV).toBe('test');
    expect(post).toBeInstanceOf(Post);
    expect(post?.title).toBe('');
    expect(post?.comments).toEqual([]);
    expect(post?.author).toBeInstanceOf(User);
    expect(post?.author.name).toBe('');
    expect(post?.pk()).toBe('p1');
    expect(Object.isFrozen(post)).toBe(true);
    expect(Object.isFrozen(post?.author)).toBe(true);
    expect(() => {
      (post as { title: string }).title = 'changed';
    }).toThrow(TypeError);
    expect(read(Post, 'p1')?.title).toBe('');
  });

  test('a plain function deserializer reads back its value (static schema = { createdAt: Date })', () => {
    const { cache, store, write, read } = setup();
    write(Event, { id: 'e1', name: 'Launch', createdAt: '2020-01-02T03:04:05.000Z' });
    // The row keeps the raw JSON value.
    expect(store.getState()[cache.reducerPath].entities['Event']?.['e1']).toEqual({
      id: 'e1',
      name: 'Launch',
      createdAt: '2020-01-02T03:04:05.000Z',
    });
    const event = read(Event, 'e1');
    expect(event).toBeInstanceOf(Event);
    expect(event?.createdAt).toBeInstanceOf(Date);
    expect(event?.createdAt?.getTime()).toBe(Date.UTC(2020, 0, 2, 3, 4, 5));
  });
});

describe('nested fields', () => {
  test('a missing nested row reads as an undefined field, and the parent updates once it appears', () => {
    const { write, read } = setup();
    write(Article, { id: 'a1', title: 'T', author: 'u9' });
    const before = read(Article, 'a1');
    expect(before).toBeInstanceOf(Article);
    expect(before?.title).toBe('T');
    expect(before?.author).toBeUndefined();

    write(User, { id: 'u9', name: 'Nine' });
    const after = read(Article, 'a1');
    expect(after?.author).toBeInstanceOf(User);
    expect(after?.author.name).toBe('Nine');
    expect(after?.author).toBe(read(User, 'u9'));
  });

  test('a deleted required nested entity (truthy initialiser) makes the parent undefined', () => {
    const { write, read } = setup();
    write(Article, { id: 'a1', title: 'T', author: { id: 'u1', name: 'Ada' }, editor: { id: 'u2', name: 'Bob' } });
    expect(read(Article, 'a1')?.author.name).toBe('Ada');
    write(new Invalidate(User), 'u1');
    expect(read(Article, 'a1')).toBeUndefined();
  });

  test('a deleted optional nested entity (null initialiser) reads as an undefined field', () => {
    const { write, read } = setup();
    write(Article, { id: 'a1', title: 'T', author: { id: 'u1', name: 'Ada' }, editor: { id: 'u2', name: 'Bob' } });
    expect(read(Article, 'a1')?.editor?.name).toBe('Bob');
    write(new Invalidate(User), 'u2');
    const article = read(Article, 'a1');
    expect(article).toBeInstanceOf(Article);
    expect(article?.editor).toBeUndefined();
    expect(article?.author.name).toBe('Ada');
  });

  test('deleted members of an array field are dropped, and the parent stays valid', () => {
    const { write, read } = setup();
    write(Post, {
      id: 'p1',
      author: { id: 'u1' },
      comments: [
        { id: 'c1', body: 'one', author: 'u1' },
        { id: 'c2', body: 'two', author: 'u1' },
        { id: 'c3', body: 'three', author: 'u1' },
      ],
    });
    write(new Invalidate(Comment), 'c2');
    const post = read(Post, 'p1');
    expect(post?.comments.map(comment => comment.id)).toEqual(['c1', 'c3']);
    expect(post?.comments[0]).toBe(read(Comment, 'c1'));
  });

  test('a recursive graph resolves to shared objects', () => {
    const { write, read } = setup();
    write(Report, { id: 'r1', title: 'Q1', author: { id: 'p1', name: 'Ada', reports: ['r1', 'r2'] } });
    write(Report, { id: 'r2', title: 'Q2', author: 'p1' });
    const report = read(Report, 'r1');
    expect(report).toBeInstanceOf(Report);
    const author = report?.author;
    expect(author).toBeInstanceOf(Person);
    expect(author?.reports).toHaveLength(2);
    expect(author?.reports[0]).toBe(report);
    expect(author?.reports[1]?.title).toBe('Q2');
    expect(author?.reports[1]?.author).toBe(author);
  });
});

describe('All', () => {
  test('every live row in table order; tombstones excluded', () => {
    const { write, read } = setup();
    write(
      [User],
      [
        { id: 'b', name: 'B' },
        { id: 'a', name: 'A' },
        { id: 'c', name: 'C' },
      ],
    );
    const all = new All(User);
    const users = read(all);
    expect(users?.map(user => user.id)).toEqual(['b', 'a', 'c']);
    expect(users?.[0]).toBeInstanceOf(User);
    expect(users?.[1]).toBe(read(User, 'a'));

    write(new Invalidate(User), 'a');
    expect(read(all)?.map(user => user.id)).toEqual(['b', 'c']);
  });

  test('a missing table reads as undefined; a table with no live rows as []', () => {
    const { write, read } = setup();
    const all = new All(User);
    expect(read(all)).toBeUndefined();
    write(User, { id: '1', name: 'Ada' });
    write(new Invalidate(User), '1');
    expect(read(all)).toEqual([]);
  });

  test('writing an empty All creates the table, which then reads as []', () => {
    const { write, read } = setup();
    const all = new All(User);
    write(all, []);
    expect(read(all)).toEqual([]);
  });

  test('polymorphic All: member order, then table order; tombstones excluded', () => {
    const { write, read } = setup();
    expect(read(Pets)).toBeUndefined();
    write(Dog, { id: 'd1', name: 'Rex' });
    const dogsOnly = read(Pets);
    expect(dogsOnly?.map(pet => pet.id)).toEqual(['d1']);
    write(Cat, { id: 'c2', name: 'Tom' });
    write(Cat, { id: 'c1', name: 'Kit' });
    write(Dog, { id: 'd2', name: 'Fido' });
    const pets = read(Pets);
    expect(pets?.map(pet => [pet.constructor, pet.id])).toEqual([
      [Cat, 'c2'],
      [Cat, 'c1'],
      [Dog, 'd1'],
      [Dog, 'd2'],
    ]);
    expect(pets?.[0]).toBe(read(Cat, 'c2'));
    write(new Invalidate(Cat), 'c2');
    expect(read(Pets)?.map(pet => pet.id)).toEqual(['c1', 'd1', 'd2']);
  });
});

describe('Union queryKey', () => {
  test('the attribute of args[0] picks the member, with no fallback', () => {
    const { write, read } = setup();
    write(User, { id: '1', name: 'User one' });
    write(Group, { id: '2', name: 'Group two' });

    const user = read(Member, { id: '1', type: 'users' });
    expect(user).toBeInstanceOf(User);
    expect(user).toBe(read(User, '1'));
    const group = read(Member, { id: '2', type: 'groups' });
    expect(group).toBeInstanceOf(Group);
    expect(group).toBe(read(Group, '2'));
    // A named member that misses is undefined even when another member has the pk.
    expect(read(Member, { id: '1', type: 'groups' })).toBeUndefined();
    expect(read(Member, { id: '2', type: 'users' })).toBeUndefined();
  });

  test('without a known attribute the members are tried in declaration order', () => {
    const { write, read } = setup();
    write(Group, { id: '5', name: 'Group five' });
    expect(read(Member, { id: '5' })).toBeInstanceOf(Group);
    write(User, { id: '5', name: 'User five' });
    expect(read(Member, { id: '5' })).toBeInstanceOf(User);
    expect(read(Member, { id: '5', type: 'robots' })).toBeInstanceOf(User);
    expect(read(Member, { id: '6' })).toBeUndefined();
    expect(read(Member)).toBeUndefined();
  });
});

describe('plain-object joins', () => {
  test('both members present', () => {
    const { write, read } = setup();
    write(Ticker, { product_id: 'BTC', price: 100 });
    write(Stats, { product_id: 'BTC', last: 99 });
    const joined = read(TickerJoin, { product_id: 'BTC' });
    expect(joined?.ticker).toBeInstanceOf(Ticker);
    expect(joined?.ticker).toBe(read(Ticker, 'BTC'));
    expect(joined?.stats).toBe(read(Stats, 'BTC'));
    expect(joined?.stats?.last).toBe(99);
  });

  test('a missing member reads as undefined and the object is still returned', () => {
    const { write, read } = setup();
    write(Ticker, { product_id: 'BTC', price: 100 });
    const joined = read(TickerJoin, { product_id: 'BTC' });
    expect(joined).toBeDefined();
    expect(joined?.ticker?.price).toBe(100);
    expect(joined?.stats).toBeUndefined();

    const nothing = read(TickerJoin, { product_id: 'ETH' });
    expect(nothing).toBeDefined();
    expect(nothing?.ticker).toBeUndefined();
    expect(nothing?.stats).toBeUndefined();
  });

  test('a deleted member makes the whole object invalid (undefined)', () => {
    const { write, read } = setup();
    write(Ticker, { product_id: 'BTC', price: 100 });
    write(Stats, { product_id: 'BTC', last: 99 });
    write(new Invalidate(Stats), 'BTC');
    expect(read(TickerJoin, { product_id: 'BTC' })).toBeUndefined();
  });
});

describe('schemas that are not queryable', () => {
  test('[S] and Values read as undefined even when their rows are cached', () => {
    const { write, read } = setup();
    write([User], [{ id: '1', name: 'Ada' }]);
    expect(read(User, '1')).toBeDefined();
    expect(read([User])).toBeUndefined();
    expect(read([User], {})).toBeUndefined();
    expect(read(new Values(User))).toBeUndefined();
    expect(read(new Values(User), { id: '1' })).toBeUndefined();
  });
});

describe('Lazy', () => {
  test('a lazy field reads back its raw refs; Lazy.query resolves a list of ids, dropping missing ones', () => {
    const { cache, store, write, read } = setup();
    write(Department, {
      id: 'd1',
      name: 'Maths',
      buildings: [
        { id: 'b1', name: 'North' },
        { id: 'b2', name: 'South' },
      ],
    });
    const state = store.getState()[cache.reducerPath];
    expect(state.entities['Building']?.['b1']).toEqual({ id: 'b1', name: 'North' });

    const department = read(Department, 'd1');
    expect(department).toBeInstanceOf(Department);
    expect(department?.buildings).toEqual(['b1', 'b2']);

    const query = Department.schema.buildings.query;
    expect(Department.schema.buildings.query).toBe(query);
    const buildings = read(query, ['b1', 'missing', 'b2']);
    expect(buildings).toHaveLength(2);
    expect(buildings?.[0]).toBeInstanceOf(Building);
    expect(buildings?.[0]).toBe(read(Building, 'b1'));
    expect(buildings?.[1]?.name).toBe('South');
    expect(read(query, department?.buildings)?.map(building => building.name)).toEqual(['North', 'South']);
  });
});

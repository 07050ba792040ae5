/**
 * Scalar (see docs/Scalar.md): construction, lens rules, entity-field and standalone writes, cell merge
 * and ordering, and reads per lens (entity fields and root reads). Every error path checks the
 * store is unchanged; every read that is repeated checks identity.
 */
import { Collection, Entity, ErrorCode, Scalar, Values } from '../../src/index';
import {
  companies,
  Company,
  companyList,
  getColumnsList,
  getColumnsMap,
  getCompanies,
  PortfolioScalar,
  Sector,
} from '../fixtures/company';
import { makeStore, snapshot } from '../fixtures/store';
import { catchError, endpoint, expectRejected, makeRecordingStore } from '../fixtures/writes';

const A = { portfolio: 'A' };
const B = { portfolio: 'B' };
const CELLS = 'Scalar(portfolio)';
const portfolioLens = (args: readonly unknown[]) => (args[0] as { portfolio?: string } | undefined)?.portfolio;

type Store = ReturnType<typeof makeStore>['store'];
type Cache = ReturnType<typeof makeStore>['cache'];

/** A store holding the Company list at lens A (cells `Company|1|A`, `Company|2|A`). */
function seeded() {
  const { cache, store } = makeStore();
  store.dispatch(cache.setResponse(getCompanies, A, companies));
  return { cache, store };
}

const slice = (store: Store) => store.getState().cache;
const cells = (store: Store) => slice(store).entities[CELLS];
const cell = (store: Store, cpk: string) => cells(store)?.[cpk];
const tuple = (pk: string, field: string, entityKey = 'Company') => [pk, field, entityKey];

/** Company `id` read under `params` (which carry the lens). */
function readCompany(cache: Cache, store: Store, id: string, params: object = {}) {
  return cache.selectQuery(store.getState(), Company, { id, ...params });
}

/** setResponse stores a normalize error in `meta[key]` and writes nothing else. */
function expectStoredError(
  cache: Cache,
  store: Store,
  ep: ReturnType<typeof endpoint>,
  args: unknown[],
  response: unknown,
  code: ErrorCode,
) {
  const before = slice(store);
  store.dispatch(cache.setResponse(ep, ...args, response));
  const after = slice(store);
  expect(after.entities).toBe(before.entities);
  expect(after.entitiesMeta).toBe(before.entitiesMeta);
  expect(after.endpoints).toBe(before.endpoints);
  expect(after.meta[ep.key(...args)]?.error?.code).toBe(code);
}

describe('the Company example', () => {
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
      id: '1',
      name: 'Acme',
      price: 100,
      pct_equity: ['1', 'pct_equity', 'Company'],
      shares: ['1', 'shares', 'Company'],
      sector: 's1',
    });
    expect(snapshot(state.cache.entities['Scalar(portfolio)']!['Company|1|A'])).toEqual({
      pct_equity: 0.5,
      shares: 32342,
    });

    const a1 = cache.selectQuery(state, companyList, A)!;
    const b1 = cache.selectQuery(state, companyList, B)!;
    const a2 = cache.selectQuery(state, companyList, A)!;
    const b2 = cache.selectQuery(state, companyList, B)!;
    expect(a1.map(c => [c.name, c.pct_equity, c.shares])).toEqual([
      ['Acme', 0.5, 32342],
      ['Globex', 0.2, 100],
    ]);
    expect(b1.map(c => [c.name, c.pct_equity, c.shares])).toEqual([
      ['Acme', 0.3, 323],
      ['Globex', undefined, undefined],
    ]);
    expect(a2).toBe(a1);
    expect(b2).toBe(b1);
    expect(a2[0]).toBe(a1[0]);
    expect(b1[0]).not.toBe(a1[0]);
    expect(b1[0]!.sector).toBe(a1[0]!.sector);
  });
});

describe('construction', () => {
  class NotAnEntity {
    id = '';
  }

  test.each<[string, unknown]>([
    ['no options', undefined],
    ['no lens', { key: 'portfolio' }],
    ['a lens that is not a function', { lens: 'portfolio', key: 'portfolio' }],
    ['no key', { lens: portfolioLens }],
    ['an empty key', { lens: portfolioLens, key: '' }],
    ['a key that is not a string', { lens: portfolioLens, key: 7 }],
    ['an entity that is a plain class', { lens: portfolioLens, key: 'portfolio', entity: NotAnEntity }],
    ['an entity that is an instance', { lens: portfolioLens, key: 'portfolio', entity: new Company() }],
    ['an entity that is a string', { lens: portfolioLens, key: 'portfolio', entity: 'Company' }],
  ])('%s → INVALID_SCHEMA', (_, options) => {
    const error = catchError(() => new Scalar(options as never));
    expect(error.code).toBe(ErrorCode.INVALID_SCHEMA);
  });

  test('valid options: the table is Scalar(<key>), shared by Scalars with that key; entity is optional', () => {
    const bound = new Scalar({ lens: portfolioLens, key: 'portfolio', entity: Company });
    const unbound = new Scalar({ lens: portfolioLens, key: 'portfolio' });
    expect(bound.table).toBe(CELLS);
    expect(unbound.table).toBe(PortfolioScalar.table);
    expect(unbound.entity).toBeUndefined();
    expect(bound.lens).toBe(portfolioLens);
  });
});

describe('as an entity field', () => {
  test('the row holds lens-independent tuples; each lens has one cell with all the row’s Scalar fields', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Company, A, { id: '1', name: 'Acme', price: 100, pct_equity: 0.5, shares: 10 }));
    const companyRows = slice(store).entities.Company;
    store.dispatch(cache.set(Company, B, { id: '1', pct_equity: 0.3, shares: 3 }));
    const { entities } = slice(store);
    // The B write leaves the row as it was: its tuples do not name the lens.
    expect(entities.Company).toBe(companyRows);
    expect(snapshot(entities.Company)).toEqual({
      1: { id: '1', name: 'Acme', price: 100, pct_equity: tuple('1', 'pct_equity'), shares: tuple('1', 'shares') },
    });
    expect(snapshot(entities[CELLS])).toEqual({
      'Company|1|A': { pct_equity: 0.5, shares: 10 },
      'Company|1|B': { pct_equity: 0.3, shares: 3 },
    });

    const atA = readCompany(cache, store, '1', A)!;
    const atB = readCompany(cache, store, '1', B)!;
    expect([atA.name, atA.pct_equity, atA.shares]).toEqual(['Acme', 0.5, 10]);
    expect([atB.name, atB.pct_equity, atB.shares]).toEqual(['Acme', 0.3, 3]);
    expect(atB).not.toBe(atA);
    expect(readCompany(cache, store, '1', A)).toBe(atA);
    expect(readCompany(cache, store, '1', B)).toBe(atB);
  });

  test('fields accumulate across writes and across fields', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Company, A, { id: '1', pct_equity: 0.5 }));
    expect(snapshot(cell(store, 'Company|1|A'))).toEqual({ pct_equity: 0.5 });
    const first = readCompany(cache, store, '1', A)!;
    expect(first.pct_equity).toBe(0.5);
    expect(first.shares).toBeUndefined(); // never the initialiser 0

    store.dispatch(cache.set(Company, A, { id: '1', shares: 7 }));
    expect(snapshot(cell(store, 'Company|1|A'))).toEqual({ pct_equity: 0.5, shares: 7 });
    store.dispatch(cache.set(Company, A, { id: '1', pct_equity: 0.9 }));
    expect(snapshot(cell(store, 'Company|1|A'))).toEqual({ pct_equity: 0.9, shares: 7 });
    expect(snapshot(slice(store).entities.Company!['1'])).toEqual({
      id: '1',
      pct_equity: tuple('1', 'pct_equity'),
      shares: tuple('1', 'shares'),
    });
    const last = readCompany(cache, store, '1', A)!;
    expect(last).not.toBe(first);
    expect([last.pct_equity, last.shares]).toEqual([0.9, 7]);
  });

  test('the same row twice in one write merges into one cell in document order', () => {
    const { cache, store } = makeStore();
    store.dispatch(
      cache.set([Company], A, [
        { id: '1', pct_equity: 0.1, shares: 1 },
        { id: '1', shares: 2 },
      ]),
    );
    expect(Object.keys(cells(store)!)).toEqual(['Company|1|A']);
    expect(snapshot(cell(store, 'Company|1|A'))).toEqual({ pct_equity: 0.1, shares: 2 });
  });

  test('an unbound Scalar shared by two classes writes each under its own class (Co|1|A, Fund|1|A)', () => {
    const Shared = new Scalar({ lens: portfolioLens, key: 'shared' });
    class Co extends Entity {
      id = '';
      pct = 0;
      static override key = 'Co';
      static override schema = { pct: Shared };
    }
    class Fund extends Entity {
      id = '';
      pct = 0;
      static override key = 'Fund';
      static override schema = { pct: Shared };
    }
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Co, A, { id: '1', pct: 0.1 }));
    store.dispatch(cache.set(Fund, A, { id: '1', pct: 0.2 }));
    const { entities } = slice(store);
    expect(snapshot(entities['Scalar(shared)'])).toEqual({ 'Co|1|A': { pct: 0.1 }, 'Fund|1|A': { pct: 0.2 } });
    expect(snapshot(entities.Co!['1'])).toEqual({ id: '1', pct: tuple('1', 'pct', 'Co') });
    expect(snapshot(entities.Fund!['1'])).toEqual({ id: '1', pct: tuple('1', 'pct', 'Fund') });

    const state = store.getState();
    expect(cache.selectQuery(state, Co, { id: '1', portfolio: 'A' })?.pct).toBe(0.1);
    expect(cache.selectQuery(state, Fund, { id: '1', portfolio: 'A' })?.pct).toBe(0.2);
    // A root read spans every entity type that shares the table.
    const root = cache.selectQuery(state, Shared, A);
    expect(root).toEqual([{ pct: 0.1 }, { pct: 0.2 }]);
    expect(cache.selectQuery(state, Shared, A)).toBe(root);
  });

  test('a Scalar bound to Company, used in another class’s schema, writes under that class (the walk parent wins)', () => {
    class Holding extends Entity {
      id = '';
      pct_equity = 0;
      static override key = 'Holding';
      static override schema = { pct_equity: PortfolioScalar };
    }
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Holding, A, { id: '1', pct_equity: 0.4 }));
    expect(snapshot(cells(store))).toEqual({ 'Holding|1|A': { pct_equity: 0.4 } });
    expect(snapshot(slice(store).entities.Holding!['1'])).toEqual({
      id: '1',
      pct_equity: tuple('1', 'pct_equity', 'Holding'),
    });
    expect(slice(store).entities.Company).toBeUndefined();
    expect(cache.selectQuery(store.getState(), Holding, { id: '1', portfolio: 'A' })?.pct_equity).toBe(0.4);
  });

  test('falsy values 0, "" and false are stored verbatim and read back, never as the initialiser', () => {
    class Flags extends Entity {
      id = '';
      n = 1;
      s = 'x';
      b = true;
      static override key = 'Flags';
      static override schema = { n: PortfolioScalar, s: PortfolioScalar, b: PortfolioScalar };
    }
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Flags, A, { id: '1', n: 0, s: '', b: false }));
    expect(snapshot(cell(store, 'Flags|1|A'))).toEqual({ n: 0, s: '', b: false });
    const flags = cache.selectQuery(store.getState(), Flags, { id: '1', portfolio: 'A' })!;
    expect([flags.n, flags.s, flags.b]).toEqual([0, '', false]);
  });

  test('null is stored as null in the cell; the row keeps (or gets) the tuple; it reads back as null', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Company, A, { id: '1', pct_equity: 0.5, shares: 10 }));
    store.dispatch(cache.set(Company, A, { id: '1', pct_equity: null }));
    store.dispatch(cache.set(Company, A, { id: '2', shares: null }));
    const { entities } = slice(store);
    expect(snapshot(entities[CELLS])).toEqual({
      'Company|1|A': { pct_equity: null, shares: 10 },
      'Company|2|A': { shares: null },
    });
    expect(snapshot(entities.Company!['1'])).toMatchObject({
      pct_equity: tuple('1', 'pct_equity'),
      shares: tuple('1', 'shares'),
    });
    expect(snapshot(entities.Company!['2'])).toEqual({ id: '2', shares: tuple('2', 'shares') });
    const one = readCompany(cache, store, '1', A)!;
    const two = readCompany(cache, store, '2', A)!;
    expect(one.pct_equity).toBeNull();
    expect(one.shares).toBe(10);
    expect(two.shares).toBeNull();
    expect(two.pct_equity).toBeUndefined();
  });

  test('undefined is ignored: it erases nothing, and alone it does not need a lens', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Company, A, { id: '1', pct_equity: 0.5, shares: 10 }));
    store.dispatch(cache.set(Company, A, { id: '1', pct_equity: undefined, shares: 11 }));
    expect(snapshot(cell(store, 'Company|1|A'))).toEqual({ pct_equity: 0.5, shares: 11 });

    const cellTable = cells(store);
    store.dispatch(cache.set(Company, { id: '1', name: 'Acme', pct_equity: undefined, shares: undefined }));
    expect(cells(store)).toBe(cellTable);
    expect(slice(store).entities.Company!['1']).toMatchObject({ name: 'Acme', pct_equity: tuple('1', 'pct_equity') });
  });
});

describe('composite and custom pks', () => {
  class CompositeCompany extends Entity {
    type = '';
    id = '';
    pct_equity = 0;
    static override key = 'CompositeCompany';
    static override pk(value: object) {
      const { type, id } = value as { type?: string; id?: string };
      return `${type}|${id}`;
    }
    static override schema = { pct_equity: PortfolioScalar };
  }

  test('a pk combining fields: the cell is keyed by the exact row key, and reads resolve', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(CompositeCompany, B, { type: 'type', id: '123', pct_equity: 0.3 }));
    const { entities } = slice(store);
    expect(Object.keys(entities.CompositeCompany!)).toEqual(['type|123']);
    expect(snapshot(entities.CompositeCompany!['type|123'])).toEqual({
      type: 'type',
      id: '123',
      pct_equity: tuple('type|123', 'pct_equity', 'CompositeCompany'),
    });
    expect(snapshot(entities[CELLS])).toEqual({ 'CompositeCompany|type|123|B': { pct_equity: 0.3 } });

    const read = () =>
      cache.selectQuery(store.getState(), CompositeCompany, { type: 'type', id: '123', portfolio: 'B' });
    const company = read()!;
    expect(company.pct_equity).toBe(0.3);
    expect(read()).toBe(company);
    expect(
      cache.selectQuery(store.getState(), CompositeCompany, { type: 'type', id: '123', portfolio: 'A' })?.pct_equity,
    ).toBeUndefined();
    // A root read finds cells whose pk holds `|`: only the segment after the last `|` is the lens.
    expect(cache.selectQuery(store.getState(), PortfolioScalar, B)).toEqual([{ pct_equity: 0.3 }]);
    expect(cache.selectQuery(store.getState(), PortfolioScalar, { portfolio: '123' })).toBeUndefined();
  });

  test('a pk reading parent: the cell uses the row key the pk gave', () => {
    class Position extends Entity {
      id = '';
      pct_equity = 0;
      static override key = 'Position';
      static override pk(value: object, parent?: unknown) {
        return `${(parent as { owner?: string } | undefined)?.owner}:${(value as { id?: string }).id}`;
      }
      static override schema = { pct_equity: PortfolioScalar };
    }
    const positions = endpoint('GET /positions', { positions: [Position] });
    const { cache, store } = makeStore();
    store.dispatch(cache.setResponse(positions, A, { owner: 'ann', positions: [{ id: '1', pct_equity: 0.4 }] }));
    expect(Object.keys(slice(store).entities.Position!)).toEqual(['ann:1']);
    expect(snapshot(cells(store))).toEqual({ 'Position|ann:1|A': { pct_equity: 0.4 } });
    const data = cache.selectResponse(store.getState(), positions, A).data!;
    expect(data.positions[0]?.pct_equity).toBe(0.4);
    expect(cache.selectResponse(store.getState(), positions, A).data).toBe(data);
  });
});

describe('standalone', () => {
  test('Values(Scalar): the map key is the entity pk even when the item has another id; no entity row is written', () => {
    const { cache, store } = seeded();
    const companyRows = slice(store).entities.Company;
    store.dispatch(cache.setResponse(getColumnsMap, B, { 1: { id: '999', pct_equity: 0.3 }, 2: { shares: 5 } }));
    const state = slice(store);
    expect(state.entities.Company).toBe(companyRows);
    expect(state.endpoints[getColumnsMap.key(B)]).toEqual({ 1: 'Company|1|B', 2: 'Company|2|B' });
    expect(snapshot(cell(store, 'Company|1|B'))).toEqual({ id: '999', pct_equity: 0.3 });
    expect(snapshot(cell(store, 'Company|2|B'))).toEqual({ shares: 5 });
    expect(cell(store, 'Company|999|B')).toBeUndefined();

    const one = readCompany(cache, store, '1', B)!;
    expect([one.id, one.pct_equity, one.shares]).toEqual(['1', 0.3, undefined]);
    const data = cache.selectResponse(store.getState(), getColumnsMap, B).data!;
    expect(data).toEqual({ 1: { id: '999', pct_equity: 0.3 }, 2: { shares: 5 } });
    expect(data[1]).not.toBe(cell(store, 'Company|1|B'));
    expect(cache.selectResponse(store.getState(), getColumnsMap, B).data).toBe(data);
  });

  test('[Scalar]: entity.pk(item) names the cell, which stores the whole item including id', () => {
    const columns = endpoint('GET /columns-array', [PortfolioScalar]);
    const { cache, store } = makeStore();
    store.dispatch(
      cache.setResponse(columns, B, [
        { id: '1', pct_equity: 0.3, shares: 3 },
        { id: '2', pct_equity: 0.1 },
      ]),
    );
    const state = slice(store);
    expect(state.entities.Company).toBeUndefined();
    expect(state.endpoints[columns.key(B)]).toEqual(['Company|1|B', 'Company|2|B']);
    expect(snapshot(state.entities[CELLS])).toEqual({
      'Company|1|B': { id: '1', pct_equity: 0.3, shares: 3 },
      'Company|2|B': { id: '2', pct_equity: 0.1 },
    });
    const data = cache.selectResponse(store.getState(), columns, B).data!;
    expect(data).toEqual([
      { id: '1', pct_equity: 0.3, shares: 3 },
      { id: '2', pct_equity: 0.1 },
    ]);
    expect(data[0]).not.toBe(cell(store, 'Company|1|B'));
    expect(cache.selectResponse(store.getState(), columns, B).data).toBe(data);
  });

  test('Collection([Scalar]): the list row in [Scalar(portfolio)] holds cpks; reads are copies', () => {
    const { cache, store } = seeded();
    const companyRows = slice(store).entities.Company;
    store.dispatch(cache.setResponse(getColumnsList, B, [{ id: '1', pct_equity: 0.3, shares: 323 }]));
    const state = slice(store);
    const pk = JSON.stringify({ portfolio: 'B' });
    expect(state.entities.Company).toBe(companyRows);
    expect(state.endpoints[getColumnsList.key(B)]).toBe(pk);
    expect(snapshot(state.entities['[Scalar(portfolio)]'])).toEqual({ [pk]: ['Company|1|B'] });
    expect(snapshot(cell(store, 'Company|1|B'))).toEqual({ id: '1', pct_equity: 0.3, shares: 323 });

    const list = cache.selectQuery(store.getState(), getColumnsList.schema, B)!;
    expect(list).toEqual([{ id: '1', pct_equity: 0.3, shares: 323 }]);
    expect(list[0]).not.toBe(cell(store, 'Company|1|B'));
    expect(cache.selectQuery(store.getState(), getColumnsList.schema, B)).toBe(list);
    expect(cache.selectQuery(store.getState(), getColumnsList.schema, A)).toBeUndefined();
  });

  test('{ stock: [Scalar] } and { cols: Values(Scalar) }: no cell key holds the field name', () => {
    const stock = endpoint('GET /stock', { stock: [PortfolioScalar], cols: new Values(PortfolioScalar) });
    const { cache, store } = makeStore();
    store.dispatch(
      cache.setResponse(stock, A, {
        stock: [
          { id: '1', pct_equity: 0.5 },
          { id: '2', pct_equity: 0.2 },
        ],
        cols: { 3: { shares: 9 } },
      }),
    );
    const keys = Object.keys(cells(store)!);
    expect(keys).toEqual(['Company|1|A', 'Company|2|A', 'Company|3|A']);
    expect(keys.some(key => key.includes('stock') || key.includes('cols'))).toBe(false);
    expect(slice(store).endpoints[stock.key(A)]).toEqual({
      stock: ['Company|1|A', 'Company|2|A'],
      cols: { 3: 'Company|3|A' },
    });
    const data = cache.selectResponse(store.getState(), stock, A).data!;
    expect(data).toEqual({
      stock: [
        { id: '1', pct_equity: 0.5 },
        { id: '2', pct_equity: 0.2 },
      ],
      cols: { 3: { shares: 9 } },
    });
    expect(cache.selectResponse(store.getState(), stock, A).data).toBe(data);
  });

  test('cache.set(Scalar, args, item) at the root: entity.pk(item) names the cell', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(PortfolioScalar, B, { id: '1', pct_equity: 0.3 }));
    expect(snapshot(cells(store))).toEqual({ 'Company|1|B': { id: '1', pct_equity: 0.3 } });
    expect(slice(store).entities.Company).toBeUndefined();
  });

  test('entityPk() can be overridden for items that name their entity differently', () => {
    class ById extends Scalar {
      override entityPk(input: object) {
        return (input as { companyId?: unknown }).companyId;
      }
    }
    const byId = new ById({ lens: portfolioLens, key: 'portfolio', entity: Company });
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Company, { id: '7', name: 'Seven' }));
    store.dispatch(cache.set([byId], A, [{ companyId: '7', pct_equity: 0.7 }]));
    // In Values too the override decides, not the map key.
    store.dispatch(cache.set(new Values(byId), B, { x: { companyId: '7', pct_equity: 0.8 } }));
    expect(snapshot(cells(store))).toEqual({
      'Company|7|A': { companyId: '7', pct_equity: 0.7 },
      'Company|7|B': { companyId: '7', pct_equity: 0.8 },
    });
    expect(readCompany(cache, store, '7', A)?.pct_equity).toBe(0.7);
    expect(readCompany(cache, store, '7', B)?.pct_equity).toBe(0.8);
  });

  describe('errors leave the store unchanged', () => {
    const loose = new Scalar({ lens: portfolioLens, key: 'portfolio' });

    test('an unbound Scalar used standalone → SCALAR_ENTITY_REQUIRED', () => {
      const { cache, store } = seeded();
      expectRejected(
        store,
        () => store.dispatch(cache.set([loose], A, [{ id: '1', pct_equity: 0.5 }])),
        ErrorCode.SCALAR_ENTITY_REQUIRED,
      );
      expectRejected(
        store,
        () => store.dispatch(cache.set(new Values(loose), A, { 1: { pct_equity: 0.5 } })),
        ErrorCode.SCALAR_ENTITY_REQUIRED,
      );
      expectStoredError(
        cache,
        store,
        endpoint('GET /loose', new Values(loose)),
        [A],
        { 1: { pct_equity: 0.5 } },
        ErrorCode.SCALAR_ENTITY_REQUIRED,
      );
      // The message shows how to bind it, with the key as it was written.
      expect(() => store.dispatch(cache.set([loose], A, [{ id: '1', pct_equity: 0.5 }]))).toThrow(
        "Bind it: new Scalar({ lens, key: 'portfolio', entity: Company }).",
      );
    });

    test.each<[string, () => unknown, unknown]>([
      ['an item without id', () => [PortfolioScalar], [{ pct_equity: 0.5 }]],
      ['an item with id ""', () => [PortfolioScalar], [{ id: '', pct_equity: 0.5 }]],
      [
        'a later item without id (the earlier one is not written either)',
        () => [PortfolioScalar],
        [{ id: '1', pct_equity: 0.5 }, { shares: 1 }],
      ],
      [
        'an entityPk() override that finds nothing',
        () => [
          new (class extends Scalar {
            override entityPk() {
              return undefined;
            }
          })({ lens: portfolioLens, key: 'portfolio', entity: Company }),
        ],
        [{ id: '1', pct_equity: 0.5 }],
      ],
    ])('%s → SCALAR_PK_UNDERIVABLE', (_, schema, items) => {
      const { cache, store } = seeded();
      expectRejected(store, () => store.dispatch(cache.set(schema(), B, items)), ErrorCode.SCALAR_PK_UNDERIVABLE);
      expectStoredError(
        cache,
        store,
        endpoint('GET /columns-array', schema()),
        [B],
        items,
        ErrorCode.SCALAR_PK_UNDERIVABLE,
      );
    });

    test.each<[string, unknown, unknown]>([
      ['Values(Scalar) over numbers', new Values(PortfolioScalar), { 1: 0.5 }],
      ['Values(Scalar) over strings', new Values(PortfolioScalar), { 1: 'x' }],
      ['[Scalar] over numbers', [PortfolioScalar], [0.5]],
      ['[Scalar] over arrays', [PortfolioScalar], [[{ id: '1' }]]],
      ['Collection([Scalar]) over booleans', new Collection([PortfolioScalar], { argsKey: () => ({}) }), [true]],
    ])('a non-object item (%s) → UNEXPECTED_INPUT', (_, schema, value) => {
      const { cache, store } = seeded();
      expectRejected(store, () => store.dispatch(cache.set(schema, B, value)), ErrorCode.UNEXPECTED_INPUT);
    });

    test.each<[string, Record<string, unknown>, object]>([
      ['inside a plain object', { stats: { pct: PortfolioScalar } }, { stats: { pct: 0.5 } }],
      ['inside a list', { pcts: [PortfolioScalar] }, { pcts: [{ id: '1', pct_equity: 0.5 }] }],
      ['inside Values', { cols: new Values(PortfolioScalar) }, { cols: { 1: { pct_equity: 0.5 } } }],
    ])('a Scalar deeper than a direct entity field (%s) → INVALID_SCHEMA', (label, schema, fields) => {
      class Deep extends Entity {
        id = '';
        static override key = `Deep ${label}`;
        static override schema = schema;
      }
      const { cache, store } = seeded();
      const error = expectRejected(
        store,
        () => store.dispatch(cache.set(Deep, A, { id: '1', ...fields })),
        ErrorCode.INVALID_SCHEMA,
      );
      expect(error.message).toMatch(/only direct entity fields can be Scalars/);
      expectStoredError(
        cache,
        store,
        endpoint('GET /deep', Deep),
        [A],
        { id: '1', ...fields },
        ErrorCode.INVALID_SCHEMA,
      );
    });
  });
});

describe('lens rules', () => {
  test('a Scalar value reached without a lens → LENS_UNDEFINED, nothing written', () => {
    const { cache, store } = seeded();
    expectRejected(
      store,
      () => store.dispatch(cache.set(Company, { id: '1', pct_equity: 0.5 })),
      ErrorCode.LENS_UNDEFINED,
    );
    expectRejected(
      store,
      () => store.dispatch(cache.set(Company, {}, { id: '1', pct_equity: 0.5 })),
      ErrorCode.LENS_UNDEFINED,
    );
    // null counts as reached (a null is stored in the cell).
    expectRejected(
      store,
      () => store.dispatch(cache.set(Company, {}, { id: '1', shares: null })),
      ErrorCode.LENS_UNDEFINED,
    );
    // A later item of a list: the earlier items are not written either.
    expectRejected(
      store,
      () =>
        store.dispatch(
          cache.set([Company], {}, [
            { id: '3', name: 'Initech' },
            { id: '4', shares: 1 },
          ]),
        ),
      ErrorCode.LENS_UNDEFINED,
    );
    expectRejected(
      store,
      () => store.dispatch(cache.set([PortfolioScalar], {}, [{ id: '1', pct_equity: 0.5 }])),
      ErrorCode.LENS_UNDEFINED,
    );
    expectStoredError(
      cache,
      store,
      endpoint('GET /company', Company),
      [{}],
      { id: '1', pct_equity: 0.5 },
      ErrorCode.LENS_UNDEFINED,
    );
  });

  test('an entity response with no Scalar fields normalizes without a lens', () => {
    const { cache, store } = makeStore();
    const list = endpoint('GET /companies/plain', [Company]);
    store.dispatch(
      cache.setResponse(list, [{ id: '3', name: 'Initech', price: 5, sector: { id: 's2', name: 'Ops' } }]),
    );
    const state = slice(store);
    expect(state.meta[list.key()]?.error).toBeUndefined();
    expect(snapshot(state.entities.Company)).toEqual({ 3: { id: '3', name: 'Initech', price: 5, sector: 's2' } });
    expect(state.entities[CELLS]).toBeUndefined();
    store.dispatch(cache.set(Company, { id: '3', price: 6 }));
    expect(slice(store).entities.Company!['3']).toMatchObject({ price: 6 });
  });

  test.each<[string, unknown]>([
    ['a number', 5],
    ['null', null],
    ['an object', { id: 'A' }],
    ['a string with "|"', 'A|B'],
  ])('a lens that is %s → INVALID_LENS at write, undefined fields at read', (_, lens) => {
    const { cache, store } = seeded();
    const params = { portfolio: lens };
    expectRejected(
      store,
      () => store.dispatch(cache.set(Company, params, { id: '1', pct_equity: 0.9 })),
      ErrorCode.INVALID_LENS,
    );
    expectRejected(
      store,
      () => store.dispatch(cache.set(getColumnsMap.schema, params, { 1: { pct_equity: 0.9 } })),
      ErrorCode.INVALID_LENS,
    );
    expectStoredError(
      cache,
      store,
      endpoint('GET /company', Company),
      [params],
      { id: '1', shares: 1 },
      ErrorCode.INVALID_LENS,
    );

    const company = readCompany(cache, store, '1', params)!;
    expect([company.name, company.pct_equity, company.shares]).toEqual(['Acme', undefined, undefined]);
    expect(readCompany(cache, store, '1', params)).toBe(company);
    const list = cache.selectQuery(store.getState(), companyList, params)!;
    expect(list.map(c => c.pct_equity)).toEqual([undefined, undefined]);
    expect(list[0]!.sector).toBe(readCompany(cache, store, '1', A)!.sector);
    expect(cache.selectQuery(store.getState(), PortfolioScalar, params)).toBeUndefined();
  });

  test('a lens function that throws: the error propagates unchanged from writes (store unchanged) and reads', () => {
    const boom = new Error('boom');
    const Throwing = new Scalar({
      lens: args => {
        if ((args[0] as { boom?: boolean } | undefined)?.boom) throw boom;
        return portfolioLens(args);
      },
      key: 'throwing',
    });
    class Risky extends Entity {
      id = '';
      pct = 0;
      static override key = 'Risky';
      static override schema = { pct: Throwing };
    }
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Risky, A, { id: '1', pct: 1 }));
    const before = store.getState();
    expect(() => store.dispatch(cache.set(Risky, { boom: true }, { id: '1', pct: 2 }))).toThrow(boom);
    expect(store.getState()).toBe(before);
    expect(() => cache.selectQuery(store.getState(), Risky, { id: '1', boom: true })).toThrow(boom);
    expect(() => cache.selectQuery(store.getState(), Throwing, { boom: true })).toThrow(boom);
    // The failed reads left nothing behind: a good read still works and is memoized.
    const risky = cache.selectQuery(store.getState(), Risky, { id: '1', portfolio: 'A' })!;
    expect(risky.pct).toBe(1);
    expect(cache.selectQuery(store.getState(), Risky, { id: '1', portfolio: 'A' })).toBe(risky);
  });

  test('the lens "" is allowed: cell Company|1|', () => {
    const { cache, store } = makeStore();
    const empty = { portfolio: '' };
    store.dispatch(cache.set(Company, empty, { id: '1', name: 'Acme', pct_equity: 0.5 }));
    expect(snapshot(cells(store))).toEqual({ 'Company|1|': { pct_equity: 0.5 } });
    expect(readCompany(cache, store, '1', empty)?.pct_equity).toBe(0.5);
    expect(readCompany(cache, store, '1')?.pct_equity).toBeUndefined();
    expect(cache.selectQuery(store.getState(), PortfolioScalar, empty)).toEqual([{ pct_equity: 0.5 }]);
    expect(cache.selectQuery(store.getState(), PortfolioScalar, A)).toBeUndefined();
  });
});

describe('reads', () => {
  test('a missing lens or a missing cell reads undefined, never the initialiser', () => {
    const { cache, store } = seeded();
    for (const params of [{}, B, { other: 'A' }]) {
      const company = readCompany(cache, store, '1', params)!;
      expect([company.name, company.price, company.pct_equity, company.shares]).toEqual([
        'Acme',
        100,
        undefined,
        undefined,
      ]);
      expect(readCompany(cache, store, '1', params)).toBe(company);
    }
  });

  test('a row written without its Scalar fields still reads the cell: a column-only write becomes visible', () => {
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Company, { id: '1', name: 'Acme', price: 100 }));
    expect(snapshot(slice(store).entities.Company)).toEqual({ 1: { id: '1', name: 'Acme', price: 100 } });
    const before = readCompany(cache, store, '1', A)!;
    expect(before.pct_equity).toBeUndefined(); // the initialiser is 0
    expect(before.shares).toBeUndefined();

    const companyRows = slice(store).entities.Company;
    store.dispatch(cache.set(getColumnsMap.schema, A, { 1: { pct_equity: 0.5 } }));
    expect(slice(store).entities.Company).toBe(companyRows);
    const after = readCompany(cache, store, '1', A)!;
    expect(after).not.toBe(before);
    expect([after.name, after.pct_equity, after.shares]).toEqual(['Acme', 0.5, undefined]);
    expect(readCompany(cache, store, '1', A)).toBe(after);
  });

  test('a raw value or null left in a row (written before the field became a Scalar) passes through', () => {
    class Legacy extends Entity {
      id = '';
      pct = 0;
      note: string | null = 'x';
      static override key = 'Legacy';
    }
    const { cache, store } = makeStore();
    store.dispatch(cache.set(Legacy, { id: '1', pct: 0.4, note: null }));
    Legacy.schema = { pct: PortfolioScalar, note: PortfolioScalar };
    for (const params of [A, {}, { portfolio: 5 }]) {
      const legacy = cache.selectQuery(store.getState(), Legacy, { id: '1', ...params })!;
      expect(legacy.pct).toBe(0.4);
      expect(legacy.note).toBeNull();
    }
  });

  describe('root reads', () => {
    function withCells() {
      const { cache, store } = seeded();
      store.dispatch(cache.setResponse(getColumnsMap, B, { 1: { pct_equity: 0.3, shares: 323 } }));
      store.dispatch(cache.set(Company, A, { id: '3', name: 'Initech', pct_equity: 0.1 }));
      const root = (params: object) => cache.selectQuery(store.getState(), PortfolioScalar, params);
      return { cache, store, root };
    }

    test('copies of the lens’s cells in table order, frozen, never the stored objects', () => {
      const { store, root } = withCells();
      expect(Object.keys(cells(store)!)).toEqual(['Company|1|A', 'Company|2|A', 'Company|1|B', 'Company|3|A']);
      const atA = root(A)!;
      expect(atA).toEqual([{ pct_equity: 0.5, shares: 32342 }, { pct_equity: 0.2, shares: 100 }, { pct_equity: 0.1 }]);
      expect(atA[0]).toEqual(cell(store, 'Company|1|A'));
      expect(atA[0]).not.toBe(cell(store, 'Company|1|A'));
      expect(Object.isFrozen(atA)).toBe(true);
      expect(Object.isFrozen(atA[0])).toBe(true);
      expect(root(B)).toEqual([{ pct_equity: 0.3, shares: 323 }]);
    });

    test('identity: the same read, A → B → A, and unrelated updates give the same objects', () => {
      const { cache, store, root } = withCells();
      const atA = root(A)!;
      const atB = root(B)!;
      expect(root(A)).toBe(atA);
      // Other args with the same lens (the pk ignores x) give the very same result.
      expect(root({ portfolio: 'A', x: 1 })).toBe(atA);
      store.dispatch({ type: 'other/bump' });
      store.dispatch(cache.set(Sector, { id: 's9', name: 'Other' }));
      expect(root(A)).toBe(atA);
      expect(root(B)).toBe(atB);
      // A change to one A cell: the B read is kept, the A read is new, its unchanged cells kept.
      store.dispatch(cache.set(Company, A, { id: '2', shares: 101 }));
      const nextA = root(A)!;
      expect(root(B)).toBe(atB);
      expect(nextA).not.toBe(atA);
      expect(nextA[1]).toEqual({ pct_equity: 0.2, shares: 101 });
      expect(nextA[0]).toBe(atA[0]);
      expect(nextA[2]).toBe(atA[2]);
    });

    test('undefined with no cells for the lens, no table, no lens or an invalid lens', () => {
      const { root } = withCells();
      for (const params of [
        { portfolio: 'Z' },
        {},
        { portfolio: undefined },
        { portfolio: 5 },
        { portfolio: null },
        { portfolio: 'A|B' },
      ]) {
        expect(root(params)).toBeUndefined();
      }
      const { cache, store } = makeStore();
      expect(cache.selectQuery(store.getState(), PortfolioScalar, A)).toBeUndefined();
    });
  });
});

describe('cell merge and ordering on every field', () => {
  class Stake extends Entity {
    id = '';
    pct_equity = 0;
    shares = 0;
    extra = 0;
    static override key = 'Stake';
    static override schema = { pct_equity: PortfolioScalar, shares: PortfolioScalar, extra: PortfolioScalar };
  }
  const usages = [
    ['an entity field', endpoint('GET /stake', Stake), (item: object) => ({ id: '1', ...item }), 'Stake|1|A'],
    [
      'Values(Scalar)',
      endpoint('GET /columns', new Values(PortfolioScalar)),
      (item: object) => ({ 1: item }),
      'Company|1|A',
    ],
    [
      '[Scalar]',
      endpoint('GET /columns-array', [PortfolioScalar]),
      (item: object) => [{ id: '1', ...item }],
      'Company|1|A',
    ],
  ] as const;
  const bare = (value: unknown) => {
    const { id: _, ...rest } = snapshot(value) as Record<string, unknown>;
    return rest;
  };

  /** A store with the cell { pct_equity: 0.5, shares: 10 } written by a request that started at t = 100. */
  function atHundred(ep: (typeof usages)[number][1], wrap: (item: object) => unknown) {
    const { cache, store } = makeStore();
    store.dispatch(cache.resolve(ep, { args: [A], response: wrap({ pct_equity: 0.5, shares: 10 }), fetchedAt: 100 }));
    return { cache, store };
  }

  test.each(usages)(
    '%s: an older write never wins on overlap, but adds new fields; meta stays at t = 100',
    (_, ep, wrap, cpk) => {
      const { cache, store } = atHundred(ep, wrap);
      store.dispatch(
        cache.resolve(ep, { args: [A], response: wrap({ pct_equity: 0.9, shares: 9, extra: 5 }), fetchedAt: 50 }),
      );
      expect(bare(cell(store, cpk))).toEqual({ pct_equity: 0.5, shares: 10, extra: 5 });
      expect(slice(store).entitiesMeta[CELLS]?.[cpk]?.fetchedAt).toBe(100);
    },
  );

  test.each(usages)('%s: a newer write wins on its fields and keeps the others', (_, ep, wrap, cpk) => {
    const { cache, store } = atHundred(ep, wrap);
    store.dispatch(cache.resolve(ep, { args: [A], response: wrap({ pct_equity: 0.9 }), fetchedAt: 200 }));
    expect(bare(cell(store, cpk))).toEqual({ pct_equity: 0.9, shares: 10 });
    expect(slice(store).entitiesMeta[CELLS]?.[cpk]?.fetchedAt).toBe(200);
  });

  test.each(usages)('%s: an equal fetchedAt counts as newer', (_, ep, wrap, cpk) => {
    const { cache, store } = atHundred(ep, wrap);
    store.dispatch(cache.resolve(ep, { args: [A], response: wrap({ shares: 11 }), fetchedAt: 100 }));
    expect(bare(cell(store, cpk))).toEqual({ pct_equity: 0.5, shares: 11 });
  });

  test.each(usages)(
    '%s: an identical rewrite emits no cell patch and keeps the cell object; meta moves forward',
    (_, ep, wrap, cpk) => {
      const { cache, store, actions } = makeRecordingStore();
      store.dispatch(cache.resolve(ep, { args: [A], response: wrap({ pct_equity: 0.5, shares: 10 }), fetchedAt: 100 }));
      const stored = store.getState().cache.entities[CELLS]?.[cpk];
      store.dispatch(cache.resolve(ep, { args: [A], response: wrap({ pct_equity: 0.5, shares: 10 }), fetchedAt: 200 }));
      const state = store.getState().cache;
      expect(state.entities[CELLS]?.[cpk]).toBe(stored);
      expect(state.entitiesMeta[CELLS]?.[cpk]?.fetchedAt).toBe(200);
      expect(actions).toHaveLength(2);
      const last = actions[1]!;
      expect(last.payload.patches.filter(patch => patch.path[0] === 'entities')).toEqual([]);
    },
  );
});

describe('prototype keys are ordinary data', () => {
  test('a Scalar field named __proto__, a pk "constructor" and a lens "__proto__" are stored and read back as data', () => {
    const lensScalar = new Scalar({ lens: portfolioLens, key: 'proto' });
    class Odd extends Entity {
      id = '';
      static override key = 'Odd';
      static override schema = { ['__proto__']: lensScalar, constructor: lensScalar };
    }
    const { cache, store } = makeStore();
    const input = JSON.parse('{ "id": "constructor", "__proto__": 1, "constructor": 2 }');
    store.dispatch(cache.set(Odd, { portfolio: '__proto__' }, input));
    const stored = slice(store).entities['Scalar(proto)']!['Odd|constructor|__proto__']!;
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(stored, '__proto__')).toBe(true);
    expect(snapshot(stored)).toEqual(JSON.parse('{ "__proto__": 1, "constructor": 2 }'));

    const odd = cache.selectQuery(store.getState(), Odd, {
      id: 'constructor',
      portfolio: '__proto__',
    }) as unknown as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(odd, '__proto__')?.value).toBe(1);
    expect(odd.constructor).toBe(2);
    expect(Object.getPrototypeOf(odd)).toBe(Odd.prototype);
    // Root reads return copies that keep the field as data too.
    const [copy] = cache.selectQuery(store.getState(), lensScalar, { portfolio: '__proto__' })! as Record<
      string,
      unknown
    >[];
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toBe(1);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });
});

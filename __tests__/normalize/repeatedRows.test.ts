/**
 * A row mentioned several times in one write merges in document order (docs/Entity.md). The
 * default merge is done into the walk's own copy of the row (docs/benchmarks.md, "Cold paths"):
 * these tests pin that nothing else is ever merged into, neither the caller's objects nor what a
 * custom merge returned.
 */
import { Entity, ErrorCode, normalize } from '../../src/index';
import { makeStore } from '../fixtures/store';
import { endpoint, expectRejected } from '../fixtures/writes';

const OPTIONS = { maxEntityDepth: 64 };
const META = { fetchedAt: 1, date: 1, expiresAt: 2 };

class Person extends Entity {
  id = '';
  name = '';
  static override key = 'Person';
}

class Note extends Entity {
  id = '';
  author = Person.fromJS();
  static override key = 'Note';
  static override schema = { author: Person };
}

function entitiesAfter(schema: unknown, input: unknown): Record<string, Record<string, unknown>> {
  const { store } = makeStore();
  const { patches } = normalize(schema, input, [], store.getState().cache, META, OPTIONS);
  const tables: Record<string, Record<string, unknown>> = {};
  for (const patch of patches) {
    if (patch.path[0] === 'entities' && patch.path.length === 2) tables[patch.path[1] as string] = patch.value as never;
  }
  return tables;
}

test('a row repeated across a response merges every mention, later fields winning, and leaves the inputs alone', () => {
  const first = { id: 'u1', name: 'Ann', city: 'Oslo' };
  const second = { id: 'u1', name: 'Anne', age: 30 };
  const input = [
    { id: 'n1', author: first },
    { id: 'n2', author: second },
    { id: 'n3', author: { id: 'u1', mood: 'ok' } },
  ];
  const tables = entitiesAfter([Note], input);
  const row = tables.Person!.u1 as Record<string, unknown>;
  expect(row).toEqual({ id: 'u1', name: 'Anne', city: 'Oslo', age: 30, mood: 'ok' });
  expect(Object.keys(row)).toEqual(['id', 'name', 'city', 'age', 'mood']);
  expect(Object.isFrozen(row)).toBe(true);
  expect(first).toEqual({ id: 'u1', name: 'Ann', city: 'Oslo' });
  expect(second).toEqual({ id: 'u1', name: 'Anne', age: 30 });
  expect(Object.isFrozen(first) || Object.isFrozen(second)).toBe(false);
});

test('what a custom merge returns is never merged into by a later mention', () => {
  const shared = { note: 'kept by the merge' };
  class Tag extends Entity {
    id = '';
    label = '';
    static override key = 'Tag';
    static override merge(existing: object, incoming: object): object {
      // Returns an object the class keeps: the walk must not write into it.
      return Object.keys(incoming).includes('label') ? { ...shared, ...incoming } : shared;
    }
  }
  const tables = entitiesAfter([Tag], [{ id: 't1', label: 'a' }, { id: 't1' }, { id: 't1', extra: 1 }]);
  expect(shared).toEqual({ note: 'kept by the merge' });
  expect(Object.isFrozen(shared)).toBe(false);
  expect(tables.Tag!.t1).toEqual({ note: 'kept by the merge' });
});

test('a row met again by another class of the same table is written under that class, as if each mention were walked', () => {
  // Two classes share one table (a warned setup): the later mention's class decides how the row
  // meets the stored one, whichever class queued it first in the write.
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    class Member extends Entity {
      id = '';
      name = '';
      static override key = 'Member';
    }
    class StickyMember extends Entity {
      id = '';
      name = '';
      static override key = 'Member';
      // The stored row is always the later one: its fields win over an incoming write.
      static override shouldReorder(): boolean {
        return true;
      }
    }
    const { cache, store } = makeStore();
    const write = (schema: unknown, data: unknown) =>
      store.dispatch(cache.setResponse(endpoint('e', schema), [], data as never));
    write(Member, { id: 'm1', name: 'stored' });
    write({ a: Member, b: StickyMember }, { a: { id: 'm1', name: 'first' }, b: { id: 'm1', name: 'second' } });
    expect(store.getState().cache.entities.Member!.m1).toEqual({ id: 'm1', name: 'stored' });
    // The other order: the later mention is the plain class, whose write wins.
    write({ b: StickyMember, a: Member }, { b: { id: 'm1', name: 'first' }, a: { id: 'm1', name: 'second' } });
    expect(store.getState().cache.entities.Member!.m1).toEqual({ id: 'm1', name: 'second' });
  } finally {
    warn.mockRestore();
  }
});

test('a later mention carrying a value JSON cannot hold is refused, and the store is left as it was', () => {
  const input = [
    { id: 'n1', author: { id: 'u1', name: 'Ann' } },
    { id: 'n2', author: { id: 'u1', name: 'Ann', score: NaN } },
  ];
  const { cache, store } = makeStore();
  // First the author is new to the store (its row is built from checked fields, the repeat checked
  // as it merges), then stored (the repeat merged as it came, the row checked whole).
  for (const stored of [false, true]) {
    if (stored) store.dispatch(cache.set(Person, {}, { id: 'u1', name: 'Ann' }));
    const error = expectRejected(
      store,
      () => store.dispatch(cache.set([Note] as never, {}, input as never)),
      ErrorCode.UNEXPECTED_INPUT,
    );
    expect(error.message).toContain('Person "u1".score');
  }
});

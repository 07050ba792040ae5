/**
 * How a read copies a row onto its instance (docs/Entity.md): a class whose prototypes name no
 * accessor takes a row in one step, others field by field; both must give the same instance,
 * with every row field as own data, through the memo and through the plain read.
 */
import { denormalize, Entity } from '../../src/index';
import { makeStore } from '../fixtures/store';

class Plain extends Entity {
  id = '';
  title = '';
  static override key = 'Plain';
  describe(): string {
    return `${this.id}: ${this.title}`;
  }
}

let getterCalls = 0;
let setterCalls = 0;
class Guarded extends Entity {
  id = '';
  static override key = 'Guarded';
  get label(): string {
    getterCalls++;
    return 'from the getter';
  }
  set note(value: string) {
    setterCalls++;
  }
}

function readBoth<T>(cls: { key: string } & T, row: object): object[] {
  const { cache, store } = makeStore();
  store.dispatch(cache.set(cls as never, row));
  const id = (row as { id: string }).id;
  const memo = cache.selectQuery(store.getState(), cls as never, id) as unknown as object;
  const slice = store.getState().cache;
  const plain = denormalize(cls as never, id, [], slice) as unknown as object;
  return [memo, plain];
}

test('a row of a class without accessors: every field own data, extra fields included, methods kept', () => {
  for (const read of readBoth(Plain, { id: 'a', title: 'T', extra: 1, describe: 'a row field' })) {
    expect(read).toBeInstanceOf(Plain);
    expect(Object.keys(read)).toEqual(['id', 'title', 'extra', 'describe']);
    expect(Object.getOwnPropertyDescriptor(read, 'describe')).toMatchObject({ value: 'a row field', enumerable: true });
    expect((read as { extra: number }).extra).toBe(1);
    expect(Plain.prototype.describe.call(read)).toBe('a: T');
  }
});

test('a row field named like a getter or a setter of the class is defined as data, never calling them', () => {
  getterCalls = 0;
  setterCalls = 0;
  for (const read of readBoth(Guarded, { id: 'g', label: 'from the row', note: 'kept' })) {
    expect(read).toBeInstanceOf(Guarded);
    expect(Object.getOwnPropertyDescriptor(read, 'label')).toMatchObject({ value: 'from the row', enumerable: true });
    expect(Object.getOwnPropertyDescriptor(read, 'note')).toMatchObject({ value: 'kept', enumerable: true });
  }
  expect(getterCalls).toBe(0);
  expect(setterCalls).toBe(0);
});

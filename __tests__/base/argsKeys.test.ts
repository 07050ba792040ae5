/** The remembered memo keys of one-field params (src/base/argsKeys.ts) are argsKey's, whatever comes. */
import fc from 'fast-check';
import { ArgsKeys } from '../../src/base/argsKeys';
import { argsKey } from '../../src/base/json';

class Params {
  constructor(readonly id: string) {}
  toJSON(): unknown {
    return { kind: 'params', id: this.id };
  }
}

test('gives argsKey(args) for any args, asked in any order and again', () => {
  const one = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(-0), fc.boolean(), fc.constant(null));
  const args = fc.oneof(
    fc.record({ id: one }).map(params => [params]),
    fc.record({ lens: one, id: one }).map(params => [params]),
    fc
      .tuple(fc.constantFrom('id', '0', '__proto__', 'toJSON', 'lens'), one)
      .map(([field, value]) => [Object.defineProperty({}, field, { value, enumerable: true })]),
    one.map(value => [value]),
    fc.tuple(one, one),
    fc.string().map(id => [new Params(id)]),
    fc.string().map(id => [[id]]),
    fc.constant([]),
  );
  const keys = new ArgsKeys();
  fc.assert(
    fc.property(fc.array(args, { minLength: 1, maxLength: 20 }), list => {
      // Each twice: the second time from what the first remembered.
      for (const item of [...list, ...list]) expect(keys.of(item)).toBe(argsKey(item));
    }),
    { numRuns: 500 },
  );
});

test('the same field and value give the very same string (one lookup in the memo maps)', () => {
  const keys = new ArgsKeys();
  const first = keys.of([{ lens: 'L3' }]);
  expect(keys.of([{ lens: 'L3' }])).toBe(first);
  expect(first).toBe('[{"lens":"L3"}]');
  expect(keys.of([{ lens: 3 }])).toBe('[{"lens":3}]');
  expect(keys.of([new Params('L3')])).toBe(argsKey([new Params('L3')]));
  expect(keys.of([new Params('L3')])).not.toBe(keys.of([{ id: 'L3' }]));
});

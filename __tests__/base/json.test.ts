/** Memo keys of read args (src/base/json.ts): the flat-params path must give the general path's text. */
import fc from 'fast-check';
import { argsKey, stableStringify } from '../../src/base/json';

/** What the general path gives: the args without trailing undefined, `[]` for one params object with nothing defined. */
function generalKey(args: readonly unknown[]): string {
  const params = args[0] as Record<string, unknown>;
  const defined = Object.keys(params).some(key => params[key] !== undefined);
  return defined ? stableStringify(args) : '[]';
}

const value = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(-0),
  fc.constant(Number.NaN),
  fc.constant(Infinity),
  fc.bigInt(),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }),
  fc.date(),
);
const key = fc.oneof(fc.string(), fc.constantFrom('10', '2', '0', '01', '__proto__', 'toJSON', 'a', 'b', 'é', '"'));

test('one params object is keyed as the general path keys it, whatever its keys and values', () => {
  fc.assert(
    fc.property(fc.dictionary(key, value, { maxKeys: 5 }), fc.boolean(), (params, nullProto) => {
      const object = nullProto ? Object.assign(Object.create(null) as object, params) : params;
      expect(argsKey([object])).toBe(generalKey([object]));
      expect(argsKey([object, undefined])).toBe(generalKey([object]));
    }),
    { numRuns: 2_000 },
  );
});

test('key order, undefined values and empty params do not change the key', () => {
  expect(argsKey([{ b: 1, a: 'x' }])).toBe(argsKey([{ a: 'x', b: 1 }]));
  expect(argsKey([{ a: 'x', c: undefined }])).toBe(argsKey([{ a: 'x' }]));
  expect(argsKey([{}])).toBe('[]');
  expect(argsKey([{ a: undefined }])).toBe('[]');
  expect(argsKey([])).toBe('[]');
  expect(argsKey([{ lens: 'L3' }])).toBe('[{"lens":"L3"}]');
});

/**
 * lenscache's path templates against path-to-regexp 8, whose syntax they follow: on random
 * templates (text, params, quoted names, wildcards, nested optional groups, escapes) and random
 * values, both build the same path, both find the same params missing, and both refuse the same
 * malformed templates.
 */
import fc from 'fast-check';
import { compile, parse } from 'path-to-regexp';
import { compileTokens, parseTemplate, type Token } from '../../src/rest/pathTokens';

const refuse = (reason: string): never => {
  throw new RangeError(reason);
};

const NAMES = ['id', 'group', 'a', 'é', '$x', 'long_name'];

/** A template as text, from a small grammar. */
const templateArb: fc.Arbitrary<string> = fc.letrec<{ parts: string; part: string }>(tie => ({
  parts: fc.array(tie('part'), { maxLength: 5 }).map(parts => parts.join('')),
  part: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('/', '/posts', '.', '-', 'v1', '~', '%20', ' '),
    fc.constantFrom(...NAMES).map(name => `:${name}`),
    fc.constantFrom(...NAMES).map(name => `*${name}`),
    fc.constantFrom(':"two words"', ':"a/b"'),
    fc.constantFrom('\\:', '\\{', '\\*', '\\\\'),
    tie('parts').map(inner => `{${inner}}`),
  ),
})).parts;

/** Values for the names: a string, a list (for wildcards), or absent. */
const valuesArb = fc.dictionary(
  fc.constantFrom(...NAMES, 'two words', 'a/b'),
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 6 }),
    fc.array(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
  ),
);

function ours(template: string, values: Record<string, unknown>): string {
  const { path, missing } = compileTokens(parseTemplate(template, refuse))(values);
  if (missing.length > 0) throw new RangeError(`missing ${missing.join(',')}`);
  return path;
}

function theirs(template: string, values: Record<string, unknown>): string {
  return compile(template, { encode: encodeURIComponent })(values as never);
}

function namesOf(tokens: readonly Token[]): string[] {
  return tokens.flatMap(token =>
    token.type === 'group' ? namesOf(token.tokens) : token.type === 'text' ? [] : [`${token.type}:${token.name}`],
  );
}

test('random templates and values build the same path as path-to-regexp, or fail alike', () => {
  fc.assert(
    fc.property(templateArb, valuesArb, (template, values) => {
      // Values of the right kind for each name, as pathParams.ts passes them: strings to params,
      // lists to wildcards.
      const tokens = parseTemplate(template, refuse);
      // A name used twice (as a param and a wildcard) takes two kinds of value at once: not a template to write.
      const names = namesOf(tokens).map(entry => entry.split(':')[1]);
      fc.pre(new Set(names).size === names.length);
      const kinds = new Map(
        namesOf(tokens)
          .map(entry => entry.split(':') as [string, string])
          .map(([k, n]) => [n, k]),
      );
      const typed: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(values)) {
        const kind = kinds.get(name);
        if (kind === 'param') typed[name] = Array.isArray(value) ? value.join('') : value;
        if (kind === 'wildcard') typed[name] = Array.isArray(value) ? value : [value];
      }
      let expected: string | undefined;
      let expectedError = false;
      try {
        expected = theirs(template, typed);
      } catch {
        expectedError = true;
      }
      if (expectedError) expect(() => ours(template, typed)).toThrow(/missing/);
      else expect(ours(template, typed)).toBe(expected);
    }),
    { numRuns: 2_000 },
  );
});

test('the names and kinds found are path-to-regexp’s', () => {
  fc.assert(
    fc.property(templateArb, template => {
      const flat = (tokens: readonly { type: string; name?: string; tokens?: unknown }[]): string[] =>
        tokens.flatMap(token =>
          token.type === 'group'
            ? flat(token.tokens as never)
            : token.type === 'text'
              ? []
              : [`${token.type}:${token.name}`],
        );
      expect(namesOf(parseTemplate(template, refuse))).toEqual(flat(parse(template).tokens));
    }),
    { numRuns: 1_000 },
  );
});

test.each([
  '/posts/:',
  '/posts/*',
  '/posts/{:id',
  '/posts/:id}',
  '/posts/(:id)',
  '/posts/:id?',
  '/posts/:id+',
  '/posts/[id]',
  '/posts/!',
  '/posts/:""',
  '/posts/\\',
])('%p is refused by both', template => {
  expect(() => parse(template)).toThrow();
  expect(() => parseTemplate(template, refuse)).toThrow(RangeError);
});

test('a refusal says what and where', () => {
  expect(() => parseTemplate('/a/{:id', refuse)).toThrow('Missing } at index 7');
  expect(() => parseTemplate('/a/(x)', refuse)).toThrow('Unexpected ( at index 3');
  expect(() => parseTemplate('/a/:/b', refuse)).toThrow('Missing parameter name at index 4');
});

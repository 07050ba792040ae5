/**
 * Path templates: the names a template takes (at run time and in types) and the URL path built
 * from params. `:name` segments are required; inside braces (`/posts{/:id}`), optional; `*name`
 * takes a list of segments. The syntax is path-to-regexp's (version 8), compiled here by
 * `pathTokens.ts` (docs/RestEndpoint.md, "Paths").
 */

import { compileTokens, parseTemplate, type Token } from './pathTokens.js';
import { hasOwn, isRecord } from '../base/dict.js';
import { Lru } from '../base/Lru.js';
import { describe, setupError, inputError } from '../base/errors.js';

type Strip<S extends string> = S extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${Strip<Tail>}` : S;
type Groups<S extends string> = S extends `${string}{${infer Group}}${infer Tail}` ? Group | Groups<Tail> : never;
type NameOf<S extends string> = S extends `${infer Name}${'/' | '.' | '-' | '{' | '}' | ';' | ','}${string}` ? Name : S;
type Names<S extends string> = S extends `${string}${':' | '*'}${infer Rest}` ? NameOf<Rest> | Names<Rest> : never;

/** A path param's value: numbers, BigInts and booleans are written as strings. */
export type PathValue = string | number | bigint | boolean;

/**
 * The params a path template takes: `'/:group/posts{/:id}'` → `{ group: PathValue; id?: PathValue }`.
 * An optional param may also be given as `undefined` (or `null`), which leaves its part out.
 */
export type PathParams<P extends string> = string extends P
  ? Record<string, unknown>
  : Simplify<{ [K in Names<Strip<P>>]: PathValue } & { [K in Names<Groups<P>>]?: PathValue | null | undefined }>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** A compiled template: its param names and the function that fills it. */
export interface PathTemplate {
  readonly names: ReadonlySet<string>;
  fill(params: Readonly<Record<string, unknown>>): string;
}

/**
 * Compiled templates by path. An app declares a handful of paths, but endpoints made on the fly
 * (a path built from data) must not grow this without a bound: the least recently used go first.
 */
const templates = new Lru<string, PathTemplate>(500);

export function pathTemplate(path: string): PathTemplate {
  let template = templates.get(path);
  if (template) return template;
  const tokens = parseTemplate(path, reason => {
    throw setupError(
      'INVALID_SCHEMA',
      process.env.NODE_ENV !== 'production' && [
        `The RestEndpoint path ${JSON.stringify(path)} is not a valid template: ${reason}.`,
        "Write params as :name segments ('/:group/posts'), optional parts in braces ('/posts{/:id}').",
      ],
      path,
    );
  });
  const names = new Set<string>();
  collectNames(tokens, names);
  const toPath = compileTokens(tokens);
  template = {
    names,
    fill(params) {
      // Own properties only, into a null-prototype map: `__proto__` and `constructor` are names too.
      const values = Object.create(null) as Record<string, string | string[]>;
      for (const name of names) {
        const value = hasOwn(params, name) ? params[name] : undefined;
        if (value === undefined || value === null) continue;
        if (Array.isArray(value)) {
          // Wildcards (`/files/*path`) take a list of segments, each checked as a single param is.
          values[name] = value.map(segment => checkedSegment(segment, name, path));
          continue;
        }
        values[name] = checkedSegment(value, name, path);
      }
      const { path: filled, missing } = toPath(values);
      if (missing.length === 0) return filled;
      throw inputError(
        'UNEXPECTED_INPUT',
        process.env.NODE_ENV !== 'production' && [
          `The path ${JSON.stringify(path)} could not be filled from ${describe(params)}: Missing parameters: ${missing.join(', ')}.`,
          `Pass every :param of the path in args[0], e.g. endpoint.url({ ${[...names].map(name => `${name}: '…'`).join(', ')} }).`,
        ],
      );
    },
  };
  templates.set(path, template);
  return template;
}

/**
 * A param value as the path segment it fills. An empty or dot segment would request another
 * resource (`'/posts/'`, or a parent path): it is refused, also when the dots are percent-encoded
 * (`%2e%2e`) or sit between slashes or backslashes (`'../admin'`, `'..\\admin'`), since a server
 * or proxy that decodes and normalizes the path again would then climb out of it.
 */
function checkedSegment(value: unknown, name: string, path: string): string {
  if (typeof value === 'object' || typeof value === 'function' || typeof value === 'symbol' || value === undefined) {
    throw inputError(
      'UNEXPECTED_INPUT',
      process.env.NODE_ENV !== 'production' && [
        `The path param "${name}" of ${JSON.stringify(path)} must be a string or a number${isWildcard(path, name) ? ' (or a list of them, for a wildcard)' : ''}, but received ${describe(value)}.`,
        `Pass a plain value: { ${name}: '…' }.`,
      ],
    );
  }
  const text = String(value);
  if (text === '' || hasDotSegment(text)) {
    throw inputError(
      'UNEXPECTED_INPUT',
      process.env.NODE_ENV !== 'production' && [
        `The path param "${name}" of ${JSON.stringify(path)} is ${JSON.stringify(text)}, which would change the path rather than fill it (an empty, "." or ".." segment).`,
        `Pass a non-empty value for ${name} that is not "." or ".." (or leave an optional {…} part out by omitting it).`,
      ],
    );
  }
  return text;
}

function hasDotSegment(text: string): boolean {
  if (!text.includes('.') && !/%2e/i.test(text)) return false;
  const decoded = text.replace(/%2e/gi, '.').replace(/%2f|%5c|\\/gi, '/');
  return decoded.split('/').some(part => part === '.' || part === '..');
}

function isWildcard(path: string, name: string): boolean {
  return path.includes(`*${name}`);
}

function collectNames(tokens: readonly Token[], names: Set<string>): void {
  for (const token of tokens) {
    if (token.type === 'param' || token.type === 'wildcard') names.add(token.name);
    else if (token.type === 'group') collectNames(token.tokens, names);
  }
}

/** The params object of an endpoint's args (`{}` for none); anything else is UNEXPECTED_INPUT. */
export function paramsOf(params: unknown, path: string): Readonly<Record<string, unknown>> {
  if (params === undefined || params === null) return {};
  if (isRecord(params)) return params;
  throw inputError(
    'UNEXPECTED_INPUT',
    process.env.NODE_ENV !== 'production' && [
      `The first arg of the endpoint ${JSON.stringify(path)} must be its params object, but received ${describe(params)}.`,
      "Pass params by name: endpoint.url({ id: '1' }), not endpoint.url('1').",
    ],
  );
}

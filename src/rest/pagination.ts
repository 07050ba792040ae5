/**
 * Where a RestEndpoint's Collection sits in its schema (the schema itself, or one member of a
 * plain object schema such as `{ results: collection, nextCursor: '' }`), and the page schema
 * `endpoint.getPage` uses (docs/pagination.md).
 */

import { isObject } from '../base/dict.js';
import type { Collection } from '../schema/Collection.js';
import { isCollection } from '../schema/CollectionLike.js';
import type { Query } from '../schema/Query.js';
import { isPlainObjectSchema } from '../schema/contract.js';
import { describe, inputError, setupError } from '../base/errors.js';
import { toJsonValue } from '../base/checkRow.js';
import type { PagePagination } from './types.js';
import type { PathTemplate } from './pathParams.js';

/**
 * The Collection of `schema` and the member it sits at (`undefined`: it is the schema). A Query is
 * a valid endpoint schema that stores what its inner schema stores, so its Collection is found
 * through it (`new Query(new Collection([Post]), sort)` still has `push`).
 */
export function findCollection(schema: unknown): { collection: Collection<any>; at: string | undefined } | undefined {
  if (isQuery(schema)) return findCollection(schema.schema);
  if (isCollection(schema)) return { collection: schema as Collection<any>, at: undefined };
  if (!isPlainObjectSchema(schema)) return undefined;
  const found = Object.keys(schema).filter(name => isCollection(schema[name]));
  // Two lists in one response: which one a create or a page belongs to cannot be told.
  if (found.length !== 1) return undefined;
  return { collection: schema[found[0]!] as Collection<any>, at: found[0] };
}

function isQuery(schema: unknown): schema is Query {
  return isObject(schema) && (schema as { kind?: unknown }).kind === 'Query';
}

/** The schema of `endpoint.getPage`: the endpoint's schema with its Collection read as one page. */
export function pageSchema(
  schema: unknown,
  field: string,
  template: PathTemplate,
  where: string,
  listKey: (args: readonly unknown[]) => string,
): unknown {
  // A missing or empty field is refused by CollectionPage, after these checks.
  if (template.names.has(field)) {
    throw setupError(
      'INVALID_SCHEMA',
      process.env.NODE_ENV !== 'production' && [
        `The paginationField "${field}" of ${where} is a path param, so the list without it has no URL.`,
        'Send the page or cursor in the query string: keep it out of the path.',
      ],
    );
  }
  const found = findCollection(schema);
  if (!found) {
    throw setupError(
      'INVALID_SCHEMA',
      process.env.NODE_ENV !== 'production' && [
        `endpoint.getPage needs a Collection schema (or an object schema with one Collection member), but ${where} has ${describe(schema)}.`,
        'Give the endpoint a list: schema: new Collection([Post]), or { results: new Collection([Post]), nextCursor: "" }.',
      ],
    );
  }
  // A page of a Query's list reads through the same Query (made by its own class: a Query is told
  // by its kind, as a Collection is, so an app without Query does not bundle it).
  if (isQuery(schema)) {
    const QueryClass = schema.constructor as new (inner: unknown, process: Query['process']) => Query;
    return new QueryClass(pageSchema(schema.schema, field, template, where, listKey), schema.process);
  }
  const page = found.collection.page(field, listKey);
  return found.at === undefined ? page : { ...(schema as object), [found.at]: page };
}

/**
 * A page asked for without its page param would have its list's URL and key, and its answer would
 * overwrite the list's stored response: `url` (and so `key` and the request) refuses it, and so a
 * param that names no page: `[]` (or a list of nothing) puts nothing in the query string, and
 * `{}` names nothing either.
 */
export function requirePageParam<E extends { url(...args: any[]): string }>(
  page: E,
  field: string,
  where: string,
  pagination: PagePagination,
): E {
  // What the cache records of each page it appends (listPages.ts).
  Object.defineProperty(page, 'pagination', { configurable: true, value: pagination });
  const url = page.url;
  Object.defineProperty(page, 'url', {
    configurable: true,
    writable: true,
    value(...args: unknown[]): string {
      const params = args[0];
      const value = isObject(params) ? (params as Record<string, unknown>)[field] : undefined;
      if (value === undefined || value === null) {
        throw inputError(
          'UNEXPECTED_INPUT',
          process.env.NODE_ENV !== 'production' && [
            `${where}.getPage needs the page param "${field}" in its params, but received ${describe(params)}.`,
            `Pass the page to fetch: getPage({ ...params, ${field}: nextCursor }); the first page is the endpoint itself.`,
          ],
        );
      }
      // The list records the params of its pages in the state, so the param must be plain JSON:
      // the store's own check refuses (UNEXPECTED_INPUT) a Date, NaN, a function or a cycle here,
      // before any request. Its copy is not needed: `url` reads the caller's value.
      toJsonValue(value, process.env.NODE_ENV !== 'production' && `${where}.getPage's page param "${field}"`);
      if (namesNothing(value)) {
        throw inputError(
          'UNEXPECTED_INPUT',
          process.env.NODE_ENV !== 'production' && [
            `${where}.getPage got the page param "${field}" = ${describe(value)}, which names no page: its request would be the list's own.`,
            `Pass the cursor or page number the previous page gave (a string or a number): getPage({ ...params, ${field}: nextCursor }).`,
          ],
        );
      }
      return url.apply(page, args);
    },
  });
  return page;
}

/** A list with no item the URL would show, or a plain object without a member. */
function namesNothing(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(item => item === undefined || item === null);
  return isPlainObjectSchema(value) && Object.values(value).every(item => item === undefined);
}

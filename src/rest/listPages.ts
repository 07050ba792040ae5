/**
 * What the cache asks of a paginated list and of its pages (docs/pagination.md, "Refetching a
 * list that holds pages"): where the list is stored, which page a page request is, and how the
 * pages a list holds are fetched again and joined into one response of the list.
 */

import { isObject } from '../base/dict.js';
import { describe, inputError } from '../base/errors.js';
import type { Collection } from '../schema/Collection.js';
import { withoutField } from '../schema/collectionKey.js';
import { findCollection } from './pagination.js';
import type { ListPagination, ListPlace, PagePagination } from './types.js';

/** What these need of the list endpoint and of its page endpoint. */
interface Requestable {
  readonly options: {
    readonly paginationField?: string | undefined;
    readonly nextPageParam?: ((page: any) => unknown) | undefined;
  };
  readonly schema: unknown;
  key(...args: any[]): string;
  request(args: readonly unknown[], signal?: AbortSignal): Promise<unknown>;
}

/**
 * The pagination of `list`, or `undefined` when it has no `paginationField` or no array
 * Collection to page (its `getPage` says why when it is asked for).
 */
export function listPagination(list: Requestable, page: () => Requestable, where: string): ListPagination | undefined {
  const field = list.options.paginationField;
  const found = findCollection(list.schema);
  if (typeof field !== 'string' || field === '' || !found || found.collection.isValues) return undefined;
  const { collection, at } = found;
  return {
    kind: 'list',
    place: args => placeOf(list, collection, args),
    pageRequest(args, param) {
      const params = (args[0] ?? {}) as Record<string, unknown>;
      return [page(), [{ ...params, [field]: param }, ...args.slice(1)]];
    },
    combine: responses => combine(responses, at, where),
    next: response => nextOf(list, field, response),
  };
}

/** The pagination of the page endpoint of `list` (whose schema holds a Collection), by its page param `field`. */
export function pagePagination(list: Requestable, field: string): PagePagination {
  const collection = findCollection(list.schema)!.collection;
  return {
    kind: 'page',
    place: args => placeOf(list, collection, withoutField(args, field)),
    param: args => (args[0] as Record<string, unknown>)[field],
    next: response => nextOf(list, field, response),
  };
}

/** The param of the page after `page` (a response): `nextPageParam(page)`, else its `next<Field>` or `next` member. */
function nextOf(list: Requestable, field: string, page: unknown): unknown {
  const custom = list.options.nextPageParam;
  if (typeof custom === 'function') return custom(page);
  if (!isObject(page)) return undefined;
  const members = page as Record<string, unknown>;
  const named = `next${field.charAt(0).toUpperCase()}${field.slice(1)}`;
  return named in members ? members[named] : members.next;
}

function placeOf(list: Requestable, collection: Collection<any>, args: readonly unknown[]): ListPlace {
  return { key: list.key(...args), table: collection.key, row: collection.pk(...args) };
}

function combine(responses: readonly unknown[], at: string | undefined, where: string): unknown {
  const items: unknown[] = [];
  responses.forEach((response, index) => {
    const list =
      at === undefined ? response : isObject(response) ? (response as Record<string, unknown>)[at] : undefined;
    if (!Array.isArray(list)) {
      throw inputError(
        'UNEXPECTED_INPUT',
        process.env.NODE_ENV !== 'production' && [
          `Page ${index + 1} of ${where}, refetched with the pages its list holds, has ${describe(list)}${at === undefined ? '' : ` at "${at}"`} where its items should be.`,
          'Answer every page of the list in the same shape as its first page.',
        ],
      );
    }
    for (const item of list) items.push(item);
  });
  return at === undefined ? items : { ...(responses[0] as object), [at]: items };
}

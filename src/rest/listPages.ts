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
    readonly previousPageParam?: ((page: any) => unknown) | undefined;
    readonly maxPages?: number | undefined;
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
    combine: (responses, members) => combine(responses, members, at, where),
    ...links(list, field, at),
  };
}

/** The pagination of the page endpoint of `list` (whose schema holds a Collection), by its page param `field`. */
export function pagePagination(list: Requestable, field: string): PagePagination {
  const { collection, at } = findCollection(list.schema)!;
  return {
    kind: 'page',
    place: args => placeOf(list, collection, withoutField(args, field)),
    param: args => (args[0] as Record<string, unknown>)[field],
    ...links(list, field, at),
  };
}

/** What a list and its pages share: the params of the pages around a response, its items, `maxPages`. */
function links(list: Requestable, field: string, at: string | undefined) {
  const { nextPageParam, previousPageParam, maxPages } = list.options;
  return {
    next: (response: unknown) => linkOf(nextPageParam, ['next'], field, response),
    previous: (response: unknown) => linkOf(previousPageParam, ['previous', 'prev'], field, response),
    items(response: unknown) {
      const list = itemsAt(response, at);
      return Array.isArray(list) ? list : undefined;
    },
    maxPages,
  };
}

/** The param a page names (a response): `custom(page)`, else its `<word><Field>` member, else its `<word>` members. */
function linkOf(custom: ((page: any) => unknown) | undefined, words: string[], field: string, page: unknown): unknown {
  if (typeof custom === 'function') return custom(page);
  if (!isObject(page)) return undefined;
  const members = page as Record<string, unknown>;
  const named = `${words[0]}${field.charAt(0).toUpperCase()}${field.slice(1)}`;
  if (named in members) return members[named];
  for (const word of words) if (word in members) return members[word];
  return undefined;
}

/** What a response holds where its items should be. */
function itemsAt(response: unknown, at: string | undefined): unknown {
  return at === undefined ? response : isObject(response) ? (response as Record<string, unknown>)[at] : undefined;
}

function placeOf(list: Requestable, collection: Collection<any>, args: readonly unknown[]): ListPlace {
  return { key: list.key(...args), table: collection.key, row: collection.pk(...args) };
}

function combine(responses: readonly unknown[], members: number, at: string | undefined, where: string): unknown {
  const items: unknown[] = [];
  responses.forEach((response, index) => {
    const list = itemsAt(response, at);
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
  return at === undefined ? items : { ...(responses[members] as object), [at]: items };
}

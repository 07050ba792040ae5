/** The types of `endpoint.getPage` (docs/pagination.md): its args and what a page reads as. */

import type { Collection } from '../schema/Collection.js';
import type { CollectionPage } from '../schema/CollectionPage.js';
import type { SchemaOption, SearchOf } from './types.js';

type FieldOf<O> = O extends { paginationField: infer F extends string } ? (string extends F ? never : F) : never;

/** The endpoint's schema with its Collection read as one page (a list of the page's items). */
export type PageSchema<S> =
  S extends Collection<infer C>
    ? CollectionPage<C>
    : S extends object
      ? { [K in keyof S]: S[K] extends Collection<infer C> ? CollectionPage<C> : S[K] }
      : never;

/** The list's search params plus the page field, which a page must be given. */
type PageSearch<O> = (unknown extends SearchOf<O> ? {} : SearchOf<O>) & {
  [K in FieldOf<O>]: string | number;
};

/**
 * The options `endpoint.getPage` overrides: the page schema, and the page field in its params.
 * (`PageEndpoint`, in RestEndpoint.ts, applies them to the list endpoint's options.)
 */
export type PageOptions<O> = { schema: PageSchema<SchemaOption<O>>; searchParams: PageSearch<O> };

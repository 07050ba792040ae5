/** The types of `endpoint.getPage` (docs/pagination.md): its args and what a page reads as. */

import type { Collection } from '../schema/Collection.js';
import type { CollectionPage } from '../schema/CollectionPage.js';
import type { Extended, RestEndpoint, RestEndpointOptions } from './RestEndpoint.js';

type SchemaOption<O> = O extends { schema: infer S } ? S : undefined;
type SearchOption<O> = O extends { searchParams: infer S extends object } ? S : unknown;
type FieldOf<O> = O extends { paginationField: infer F extends string } ? (string extends F ? never : F) : never;

/** The endpoint's schema with its Collection read as one page (a list of the page's items). */
export type PageSchema<S> =
  S extends Collection<infer C>
    ? CollectionPage<C>
    : S extends object
      ? { [K in keyof S]: S[K] extends Collection<infer C> ? CollectionPage<C> : S[K] }
      : never;

/** The list's search params plus the page field, which a page must be given. */
type PageSearch<O> = (unknown extends SearchOption<O> ? Record<string, unknown> : SearchOption<O>) & {
  [K in FieldOf<O>]: string | number;
};

/** `endpoint.getPage`: the list endpoint with the page schema and the page field in its params. */
export type PageEndpoint<O extends RestEndpointOptions> = RestEndpoint<
  Extended<O, { schema: PageSchema<SchemaOption<O>>; searchParams: PageSearch<O> }>
>;

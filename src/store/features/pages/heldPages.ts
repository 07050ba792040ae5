/**
 * How each answer of a paginated list or of one of its pages keeps the list's record of its pages
 * (pages.ts) true, in the same write: docs/pagination.md, "The list's record of its pages".
 */

import { createDict } from '../../../base/dict.js';
import { jsonEqual } from '../../../base/json.js';
import type { CacheState, Row } from '../../../base/state.js';
import type { Patch } from '../../../base/patch.js';
import { toJsonValue } from '../../../base/checkRow.js';
import { listPatches, PatchList } from '../../../normalize/PatchList.js';
import { continuesList, refsNotIn } from '../../../schema/refs.js';
import type { EndpointLike } from '../../endpoint.js';
import { patchRow } from '../../slice/patchRow.js';
import type { JoinedPages, PageWay, Resolved, ResolveInput } from '../../types.js';
import {
  BASE,
  listRecord,
  loadsOf,
  metaOf,
  pagesTable,
  sameParam,
  sequence,
  type HeldPage,
  type ListRecord,
} from '../../runtime/pages.js';

/**
 * `resolved` (the write of `input`, computed against `state`) with the list's record of its
 * pages kept true, in the same write: a page appended (or put before the first, when its param is
 * the list's previous one) adds its param, and with `maxPages` drops the page at the other end
 * and its items; the list's own answer sets the record or keeps it.
 */
export function withHeldPages(
  state: CacheState,
  endpoint: EndpointLike,
  input: ResolveInput,
  resolved: Resolved | undefined,
): Resolved | undefined {
  const paging = endpoint.pagination;
  if (resolved === undefined || paging === undefined || resolved.error !== undefined) return resolved;
  const place = paging.place(input.args);
  const previous = listRecord(state, place);
  const listMeta = metaOf(state, place.key);
  const max = paging.maxPages;
  const list = new PatchList();
  let record: ListRecord | undefined;
  if (paging.kind === 'page') {
    // Recorded when the page is appended (the rule of CollectionPage): a page that started before
    // its list was replaced continues a list that is gone.
    const row = state.entities[place.table]?.[place.row];
    if (!continuesList(row, listMeta, input.fetchedAt)) return resolved;
    const param = paging.param(input.args);
    const pages = sequence(previous);
    const at = pages.findIndex(page => sameParam(page, param));
    // A page held already, loaded again, keeps its place; only one at an end names what is beyond it.
    if (at > 0 && at < pages.length - 1) return resolved;
    // Which way: as the request started (pagedRunner); for a page written by hand, as it is written.
    const way = input.pages as PageWay | undefined;
    const back = at < 0 && (way ? way.back : sameParam(previous?.previous, param) && !sameParam(previous?.next, param));
    const known = previous?.held?.length === pages.length ? previous.held : undefined;
    const held = max ? pages.map((_, i) => known?.[i] ?? { refs: [] }) : undefined;
    const before = row as readonly unknown[];
    const fresh = refsNotIn(before, paging.items(resolved.result) ?? []);
    const page: HeldPage = {
      refs: fresh,
      previous: paging.previous(input.response),
      next: paging.next(input.response),
    };
    let { next, previous: first } = previous ?? {};
    if (at < 0) {
      if (back) (pages.unshift(param), held?.unshift(page));
      else (pages.push(param), held?.push(page));
    }
    if (back || at === 0) first = page.previous;
    if (!back && (at < 0 || at === pages.length - 1)) next = page.next;
    const written = fresh.length > 0 ? [...before, ...fresh] : before;
    let items = back ? [...fresh, ...before] : written;
    // Past maxPages, the page at the other end goes, with its items; the page beside it names it.
    while (held && pages.length > max!) {
      const dropped = back ? pages.pop() : pages.shift();
      const gone = (back ? held.pop() : held.shift())!;
      items = refsNotIn(gone.refs, items);
      if (back) next = dropped === BASE ? held[held.length - 1]?.next : dropped;
      else first = dropped === BASE ? held[0]?.previous : dropped;
    }
    if (items !== written) listPatches(list, ['entities', place.table, place.row], written, Object.freeze(items));
    const loads = loadsOf(previous) + (at < 0 ? 1 : 0);
    // The list's answer at this page's lens holds this page too if it held every page before; the
    // answers at other lenses do not, and are fetched again when read.
    if (at < 0 && listMeta && (listMeta.pages ?? 0) === loadsOf(previous))
      list.set(['meta', place.key], { ...listMeta, pages: loads }, listMeta);
    record = recordOf(pages, next, first, loads, held);
  } else {
    const rowMeta = state.entitiesMeta[place.table]?.[place.row];
    // The list row is replaced unless a request that started later wrote it (the Collection's
    // rule): then it keeps the pages it holds, and this answer those its key held.
    const replaced = !rowMeta || input.fetchedAt >= rowMeta.fetchedAt;
    const joined = input.pages as JoinedPages | undefined;
    const pages = joined ? [...joined.order] : [BASE];
    // Each lens's answer counts the list's loads it holds (lacksPages). The pages the list held,
    // fetched again, keep the count; other pages (a first page alone, fewer pages) start a new one,
    // so the answers at other lenses are fetched again there when read.
    const held0 = sequence(previous);
    const same =
      held0.length === pages.length && held0.every((page, i) => page === pages[i] || sameParam(page, pages[i]));
    const loads = loadsOf(previous) + (same || !previous ? 0 : 1);
    const count = replaced || same ? loads : (listMeta?.pages ?? 0);
    if (count && resolved.meta) list.set(['meta', place.key], { ...resolved.meta, pages: count }, resolved.meta);
    if (replaced) {
      let held: HeldPage[] | undefined;
      if (max) {
        // Each page owns the items it listed first (the items of one page that an earlier one
        // listed too are counted off the last pages).
        const refs = rowAfter(state, resolved.patches, place.table, place.row);
        let from = 0;
        held = (joined?.sizes ?? [refs.length]).map(size => ({ refs: refs.slice(from, (from += size)) }));
      }
      record = recordOf(
        pages,
        paging.next(joined ? joined.last : input.response),
        paging.previous(joined ? joined.first : input.response),
        loads,
        held,
      );
    }
  }
  if (record && (previous === undefined || !jsonEqual(previous, record))) {
    const table = pagesTable(place.table);
    const stored = state.entities[table];
    if (stored === undefined) {
      const rows = createDict<Row>();
      rows[place.row] = record;
      list.set(['entities', table], Object.freeze(rows), undefined);
    } else list.set(['entities', table, place.row], record, previous);
  }
  return { ...resolved, ...list.written(resolved) };
}

/**
 * The record of `pages` (in the list's order, its own answer as `BASE`), with only what is not the
 * default, as the store holds it (checked as JSON, frozen).
 */
function recordOf(
  pages: readonly unknown[],
  next: unknown,
  previous: unknown,
  loads: number,
  held: HeldPage[] | undefined,
): ListRecord {
  const params = pages.filter(page => page !== BASE);
  const base = pages.indexOf(BASE);
  // Members left undefined are not written.
  return toJsonValue(
    {
      pages: params,
      next,
      previous,
      base: base === 0 ? undefined : base < 0 ? null : base,
      loads: loads === params.length ? undefined : loads,
      held,
    },
    process.env.NODE_ENV !== 'production' && "The list's record of its pages",
  );
}

/** The list row at `table`/`row` as `patches` leave it (the reducer's applier, over a one-row table). */
function rowAfter(state: CacheState, patches: readonly Patch[], table: string, row: string): readonly unknown[] {
  let value: unknown = state.entities[table]?.[row];
  for (const patch of patches) {
    const [root, at, key] = patch.path;
    if (root !== 'entities' || at !== table) continue;
    if (key === undefined) value = (patch.value as Record<string, unknown> | undefined)?.[row];
    else if (key === row) value = patchRow(value, [patch]);
  }
  return Array.isArray(value) ? value : [];
}

/**
 * The creation and movement schemas of a Collection: `push`, `unshift`, `assign`, `remove` and
 * `move` (docs/Collection.md). Each normalizes its items like the collection's members, then edits
 * every stored list of the collection's table that the args match. They never create a list.
 */

import { describe, inputError } from '../base/errors.js';
import { copyOwn, isObject, isRecord, setOwn } from '../base/dict.js';
import type { DenormalizeDelegate, NormalizeDelegate, RootInput, SchemaConstruct } from './contract.js';
import { checkedMerge, checkFilter, hasNoDefinedKeys, parsePk } from './collectionKey.js';
import type { CollectionLike, CollectionMerge, CreateCollectionFilter } from './CollectionLike.js';
import type { Values } from './Values.js';
import { isUsablePk } from './pk.js';
import { deltaPolicy, refsNotIn, sameRef } from './refs.js';

export type CollectionOpName = 'push' | 'unshift' | 'assign' | 'remove' | 'move';

/**
 * One of a Collection's creation or movement schemas; use it as an endpoint's schema or with
 * `cache.set(collection.push, params, item)`. Its result is the list of items it wrote (a map for
 * `assign`).
 *
 * @example
 * ```ts
 * dispatch(cache.set(getPosts.push, { group: 'react' }, { id: '9', title: 'New' }));
 * ```
 * @see docs/Collection.md
 */
export class CollectionOp<S = unknown, O extends CollectionOpName = CollectionOpName> implements SchemaConstruct {
  readonly kind = 'CollectionOp' as const;
  declare readonly schema: S;
  declare readonly rootInput: RootInput;
  declare readonly collection: CollectionLike;
  declare readonly op: O;
  /** How items are placed in a list (`addWith`/`moveWith` give it), and which lists they reach (else the collection's). */
  declare private readonly merge: CollectionMerge;
  declare private readonly filter: CreateCollectionFilter;

  constructor(collection: CollectionLike, op: O, merge?: CollectionMerge, filter?: CreateCollectionFilter) {
    this.collection = collection;
    this.op = op;
    this.merge = merge
      ? process.env.NODE_ENV !== 'production'
        ? checkedMerge(merge, collection.key)
        : merge
      : op === 'unshift'
        ? (existing: unknown[], incoming: unknown[]) => [...incoming, ...existing]
        : collection.isValues
          ? assignRefs
          : (existing: unknown[], incoming: unknown[]) => [...existing, ...incoming];
    this.filter = filter ?? collection.createCollectionFilter;
    this.schema = collection.schema as S;
    this.rootInput = op === 'assign' ? 'object' : op === 'remove' ? 'any' : 'object-or-list';
  }

  /** @internal */
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    if (this.op === 'assign') return this.assign(input, delegate);
    const refs =
      this.op === 'move'
        ? this.move(input, delegate)
        : this.op === 'remove'
          ? this.remove(input, delegate)
          : this.add(input, delegate);
    // A single item gives its own ref, a list the list of refs: each reads back in the shape it was sent.
    return Array.isArray(input) ? refs : refs[0];
  }

  /** @internal The items written, read like the collection's members: a list, a map, or the one item. */
  denormalize(input: unknown, delegate: DenormalizeDelegate): unknown {
    if (this.op !== 'assign' && !Array.isArray(input)) return this.collection.denormalizeMember(input, delegate);
    if (!isObject(input)) return input;
    return this.collection.readMembers(input, delegate);
  }

  /** @internal Not queryable: it reads back only as an endpoint's stored result. */
  queryKey(): undefined {
    return undefined;
  }

  private add(input: unknown, delegate: NormalizeDelegate): unknown[] {
    const refs: unknown[] = [];
    for (const item of itemsOf(input, this.op)) {
      // A created item may not have its server pk yet; it is stored under a placeholder (docs/Collection.md).
      if (typeof item === 'object') delegate.allowPlaceholder(item as object);
      const ref = this.collection.normalizeMember(item, undefined, undefined, delegate);
      if (ref !== undefined) refs.push(ref);
    }
    if (refs.length === 0) return refs;
    this.rows(delegate, this.reach(delegate.args), (rowKey, row) => {
      if (!Array.isArray(row)) return;
      // A list never holds a ref twice: an item a refetch listed already keeps its place.
      const fresh = refsNotIn(row, refs);
      if (fresh.length > 0) delegate.setRow(this.collection.key, rowKey, this.merge(row, fresh), deltaPolicy);
    });
    return refs;
  }

  private assign(input: unknown, delegate: NormalizeDelegate): Record<string, unknown> {
    // `.assign` exists only on Values collections, whose schema normalizes the map as a response would.
    const refs = (this.collection.schema as Values).normalize(input, undefined, undefined, delegate) as Record<
      string,
      unknown
    >;
    const keys = Object.keys(refs);
    if (keys.length === 0) return refs;
    this.rows(delegate, this.reach(delegate.args), (rowKey, row) => {
      if (!isRecord(row)) return;
      delegate.setRow(this.collection.key, rowKey, this.merge(row, refs), deltaPolicy);
    });
    return refs;
  }

  private remove(input: unknown, delegate: NormalizeDelegate): unknown[] {
    const refs = itemsOf(input, this.op).map(item =>
      this.collection.normalizeMember(item, undefined, undefined, delegate),
    );
    // A remove without params reaches every list of the table, whatever the filter.
    this.rows(delegate, this.reach(delegate.args, true), (rowKey, row) => {
      const next = without(row, refs);
      if (next !== row) delegate.setRow(this.collection.key, rowKey, next, deltaPolicy);
    });
    return refs;
  }

  /**
   * An item leaves the lists its old values match and joins those its new values match.
   * Old values come from the stored row (and the params); new ones from the body and the item.
   */
  private move(input: unknown, delegate: NormalizeDelegate): unknown[] {
    const args = delegate.args;
    const params = args[0];
    const body = args.length > 0 ? args[args.length - 1] : undefined;
    const refs: unknown[] = [];
    for (const item of itemsOf(input, this.op)) {
      if (typeof item !== 'object') {
        throw inputError(
          'UNEXPECTED_INPUT',
          process.env.NODE_ENV !== 'production' && [
            `Collection ${this.collection.key}.move expected the moved item (an object), but received ${describe(item)}.`,
            'Pass the item with its pk and its new values, e.g. { id: "10", group: "ten" }.',
          ],
        );
      }
      const { existing, processed } = this.snapshot(item as object, delegate);
      const ref = this.collection.normalizeMember(item, undefined, undefined, delegate);
      if (ref === undefined) continue;
      refs.push(ref);
      const incoming = this.collection.isValues ? body : { ...asObject(body), ...processed };
      // The filter sees (params and old values, old values), then (params and new values, all values).
      const wasIn = existing && this.reach([{ ...asObject(params), ...existing }, existing]);
      const isIn = this.reach([
        { ...asObject(params), ...asObject(incoming) },
        { ...existing, ...asObject(incoming) },
      ])!;
      this.rows(delegate, undefined, (rowKey, row, pkObject) => {
        const was = wasIn !== undefined && wasIn(pkObject);
        const is = isIn(pkObject);
        let next = row;
        if (was && !is) next = without(row, [ref]);
        // A list that already holds the item keeps it once (a refetch may have moved it already).
        else if (is && !was && !holds(row, ref))
          next = this.merge(
            row,
            Array.isArray(row) ? [ref] : { [String(isObject(ref) ? (ref as { id?: unknown }).id : ref)]: ref },
          );
        if (next !== row) delegate.setRow(this.collection.key, rowKey, next, deltaPolicy);
      });
    }
    return refs;
  }

  /** The stored row of the item before this write (the old values of a move), found through process and pk. */
  private snapshot(item: object, delegate: NormalizeDelegate): { existing: object | undefined; processed: object } {
    const cls = this.collection.memberClass(item);
    if (!cls) return { existing: undefined, processed: item };
    const processed = cls.process(item, undefined, undefined, delegate.args) ?? item;
    const pk = cls.pk(processed, undefined, undefined, delegate.args);
    const row = isUsablePk(pk) ? delegate.getRow(cls.key, String(pk)) : undefined;
    return { existing: isRecord(row) ? row : undefined, processed };
  }

  /** The test of the lists an op with `args` reaches; none (every list) for a removal without params. */
  private reach(
    args: readonly unknown[],
    removing?: boolean,
  ): ((collectionKey: Record<string, unknown>) => boolean) | undefined {
    if (removing && hasNoDefinedKeys(args[0])) return;
    const filter = this.filter.apply(this.collection, args as unknown[]);
    if (process.env.NODE_ENV !== 'production') checkFilter(filter, this.collection.key);
    return filter;
  }

  /** Calls `edit` for every stored list of the table that `filter` takes (every list without one). */
  private rows(
    delegate: NormalizeDelegate,
    filter: ((collectionKey: Record<string, unknown>) => boolean) | undefined,
    edit: (rowKey: string, row: object, pkObject: Record<string, unknown>) => void,
  ): void {
    const table = this.collection.key;
    for (const rowKey of delegate.rowKeys(table)) {
      const pkObject = parsePk(rowKey);
      if (!pkObject) continue;
      if (filter && !filter(pkObject)) continue;
      const row = delegate.getRow(table, rowKey);
      if (isObject(row)) edit(rowKey, row, pkObject);
    }
  }
}

function itemsOf(input: unknown, op: CollectionOpName): unknown[] {
  const items = Array.isArray(input) ? input : [input];
  for (const item of items) {
    const ok = typeof item === 'object' || (op === 'remove' && (typeof item === 'string' || typeof item === 'number'));
    if (!ok || item === undefined) {
      throw inputError(
        'UNEXPECTED_INPUT',
        process.env.NODE_ENV !== 'production' && [
          `Collection .${op} expected ${op === 'remove' ? 'an item, a pk' : 'an item'} or a list of them, but received ${describe(item)}.`,
          'Pass the created (or moved, or removed) item as the last argument.',
        ],
      );
    }
  }
  return items.filter(item => item !== null);
}

function asObject(value: unknown): object {
  return isObject(value) ? value : {};
}

function without(row: object, refs: readonly unknown[]): object {
  if (Array.isArray(row)) {
    const next = row.filter(ref => !refs.some(removed => sameRef(removed, ref)));
    return next.length === row.length ? row : next;
  }
  const map = row as Record<string, unknown>;
  let next: Record<string, unknown> | undefined;
  for (const mapKey of Object.keys(map)) {
    if (refs.some(removed => sameRef(removed, map[mapKey]))) {
      next ??= copyOwn(map);
      delete next[mapKey];
    }
  }
  return next ?? row;
}

function holds(row: object, ref: unknown): boolean {
  const refs = Array.isArray(row) ? row : Object.values(row);
  return refs.some(member => sameRef(member, ref));
}

/** A map's refs with `incoming`'s merged in (incoming wins per key). */
function assignRefs(existing: object, incoming: Record<string, unknown>): object {
  const next = copyOwn(existing);
  for (const mapKey of Object.keys(incoming)) setOwn(next, mapKey, incoming[mapKey]);
  return next;
}

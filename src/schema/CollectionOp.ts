/**
 * The creation and movement schemas of a Collection: `push`, `unshift`, `assign`, `remove` and
 * `move` (docs/Collection.md). Each normalizes its items like the collection's members, then edits
 * every stored list of the collection's table that the args match. They never create a list.
 */

import { describe, inputError } from '../base/errors.js';
import { copyOwn, isObject, isRecord, setOwn } from '../base/dict.js';
import type { DenormalizeDelegate, NormalizeDelegate, RootInput, SchemaConstruct } from './contract.js';
import { hasNoDefinedKeys, parsePk, pkMatches } from './collectionKey.js';
import type { CollectionLike } from './CollectionLike.js';
import type { Values } from './Values.js';
import { isUsablePk } from './pk.js';
import { deltaPolicy, refsNotIn, sameRef } from './refs.js';

export type CollectionOpName = 'push' | 'unshift' | 'assign' | 'remove' | 'move';

const rootInputs: Record<CollectionOpName, RootInput> = {
  push: 'object-or-list',
  unshift: 'object-or-list',
  assign: 'object',
  remove: 'any',
  move: 'object-or-list',
};

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

  constructor(collection: CollectionLike, op: O) {
    this.collection = collection;
    this.op = op;
    this.schema = collection.schema as S;
    this.rootInput = rootInputs[op];
  }

  /** @internal */
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    if (this.op === 'assign') return this.assign(input, delegate);
    const refs =
      this.op === 'move'
        ? this.move(input, delegate)
        : this.op === 'remove'
          ? this.remove(input, delegate)
          : this.add(input, delegate, this.op === 'push');
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

  private add(input: unknown, delegate: NormalizeDelegate, atEnd: boolean): unknown[] {
    const refs: unknown[] = [];
    for (const item of itemsOf(input, this.op)) {
      // A created item may not have its server pk yet; it is stored under a placeholder (docs/Collection.md).
      if (typeof item === 'object') delegate.allowPlaceholder(item as object);
      const ref = this.collection.normalizeMember(item, undefined, undefined, delegate);
      if (ref !== undefined) refs.push(ref);
    }
    if (refs.length === 0) return refs;
    this.rows(delegate, sourcesOf(delegate.args), (rowKey, row) => {
      if (!Array.isArray(row)) return;
      // A list never holds a ref twice: an item a refetch listed already keeps its place.
      const fresh = refsNotIn(row, refs);
      if (fresh.length > 0)
        delegate.setRow(this.collection.key, rowKey, atEnd ? [...row, ...fresh] : [...fresh, ...row], deltaPolicy);
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
    this.rows(delegate, sourcesOf(delegate.args), (rowKey, row) => {
      if (!isRecord(row)) return;
      const next = copyOwn(row);
      for (const mapKey of keys) setOwn(next, mapKey, refs[mapKey]);
      delegate.setRow(this.collection.key, rowKey, next, deltaPolicy);
    });
    return refs;
  }

  private remove(input: unknown, delegate: NormalizeDelegate): unknown[] {
    const refs = itemsOf(input, this.op).map(item =>
      this.collection.normalizeMember(item, undefined, undefined, delegate),
    );
    // A remove without params reaches every list of the table.
    const sources = hasNoDefinedKeys(delegate.args[0]) ? undefined : sourcesOf(delegate.args);
    this.rows(delegate, sources, (rowKey, row) => {
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
      const oldSources = existing ? [{ ...asObject(params), ...existing }, existing] : undefined;
      const newSources = [
        { ...asObject(params), ...asObject(incoming) },
        { ...existing, ...asObject(incoming) },
      ];
      this.rows(delegate, undefined, (rowKey, row, pkObject) => {
        const wasIn = oldSources !== undefined && pkMatches(pkObject, oldSources, this.collection.isNonFilter);
        const isIn = pkMatches(pkObject, newSources, this.collection.isNonFilter);
        let next = row;
        if (wasIn && !isIn) next = without(row, [ref]);
        // A list that already holds the item keeps it once (a refetch may have moved it already).
        else if (isIn && !wasIn && !holds(row, ref)) next = appended(row, ref);
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

  /** Calls `edit` for every stored list of the table whose pk matches `sources` (every list without sources). */
  private rows(
    delegate: NormalizeDelegate,
    sources: readonly unknown[] | undefined,
    edit: (rowKey: string, row: object, pkObject: Record<string, unknown>) => void,
  ): void {
    const table = this.collection.key;
    for (const rowKey of delegate.rowKeys(table)) {
      const pkObject = parsePk(rowKey);
      if (!pkObject) continue;
      if (sources && !pkMatches(pkObject, sources, this.collection.isNonFilter)) continue;
      const row = delegate.getRow(table, rowKey);
      if (isObject(row)) edit(rowKey, row, pkObject);
    }
  }
}

/** Params and body both decide which lists an op reaches. */
function sourcesOf(args: readonly unknown[]): unknown[] {
  return [args[0] ?? {}, args[1]];
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

/** A list gets the ref at its end; a map gets it under its id. */
function appended(row: object, ref: unknown): object {
  if (Array.isArray(row)) return [...row, ref];
  const next = copyOwn(row);
  const id = isObject(ref) ? (ref as { id?: unknown }).id : ref;
  setOwn(next, String(id), ref);
  return next;
}

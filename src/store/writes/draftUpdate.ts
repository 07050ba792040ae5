/**
 * `cache.set(schema, ...args, updater)` (docs/store.md, "Updaters"): the updater receives a draft
 * of the cached value and may change it in place or return a new value, as with Immer's
 * `produce`. Only what it changed is written: no patch for a row it left alone, and no expiry
 * moved forward for it either (normalize's `changedRowsOnly`).
 *
 * The draft is a copy-on-write view with one draft per object of the value, not per path (as
 * Immer's would be): what a read shares (a user who wrote ten posts, a cycle back to the post
 * being read) stays shared through the draft, so a change made through one path shows through
 * every other, and the graph is drafted and written back in time linear in its distinct objects
 * (docs/store.md, "Updaters on graphs"); Immer's `produce` was measured for trees and not kept
 * (docs/benchmarks.md, "Immer in the reducer and for updaters").
 */

import { dataField, defineOwn, hasOwn, isObject, isPlainRecord } from '../../base/dict.js';
import { inputError } from '../../base/errors.js';
import { Entity } from '../../schema/Entity.js';

/**
 * Runs `updater` over a draft of `current` and returns the next value, or undefined when it
 * changed nothing (nothing is then written). Throws what the updater throws; nothing is kept.
 */
export function draftUpdate(current: unknown, updater: (draft: any) => unknown): unknown {
  // A value that is no object (a Scalar cell's number) cannot be drafted: the updater's result is the value.
  if (!isDraftable(current)) return synchronous(updater(current));
  const drafts = new Drafts();
  try {
    const root = drafts.of(current);
    const returned = synchronous(updater(root));
    const next = returned === undefined || returned === root ? (drafts.changed ? root : undefined) : returned;
    return next === undefined || next === current ? undefined : writable(next, drafts);
  } finally {
    // A draft kept by the updater (in a closure, a module variable) throws when used later.
    drafts.revoke();
  }
}

/**
 * An updater's result, refused when it is a promise: the draft is gone once the updater returns,
 * so what an async updater does after its first `await` could not be written.
 */
function synchronous(returned: unknown): unknown {
  const then = (returned as { then?: unknown } | null | undefined)?.then;
  if (typeof then !== 'function') return returned;
  // Its rejection (the revoked draft, used after the await) is this error's consequence.
  (then as (ok: unknown, fail: () => void) => unknown).call(returned, undefined, () => {});
  throw inputError(
    'UNEXPECTED_INPUT',
    process.env.NODE_ENV !== 'production' && [
      'The updater passed to cache.set returned a promise (an async function?); an updater runs synchronously, on a draft that is gone once it returns. Nothing was written.',
      'Await what you need first, then call cache.set with a synchronous updater (or with the value itself).',
    ],
  );
}

/** Arrays, plain objects and entities are drafted; other objects (a Date) are kept as they are. */
function isDraftable(value: unknown): value is object {
  return isObject(value) && (Array.isArray(value) || value instanceof Entity || isPlainRecord(value));
}

/** A new, unfrozen object of the same kind (array, or the same prototype) and own fields as `value`. */
function shallowCopy(value: object): object {
  if (Array.isArray(value)) return value.slice();
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as object;
  for (const key of Object.keys(value)) defineOwn(copy, key, (value as Record<string, unknown>)[key]);
  return copy;
}

/**
 * The drafts of one updater call. Each object of the value gets one draft the first time it is
 * reached (so only what the updater touches is copied), and every path to that object gives the
 * same draft. A draft is a proxy over its own shallow copy: reads go to the copy (a nested object
 * comes back as its draft, which the copy then holds), writes change the copy.
 */
class Drafts {
  /** True once any draft was written to. */
  changed = false;
  private readonly byObject = new Map<object, object>();
  /** Each draft's copy (its proxy target). */
  private readonly copies = new Map<object, object>();
  private readonly revokers: (() => void)[] = [];
  declare private readonly handler: ProxyHandler<object>;

  constructor() {
    const drafts = this;
    this.handler = {
      get(target, key, receiver) {
        // Getters and methods run with the draft as `this`, so what they read is drafted too.
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof key !== 'string' || !isDraftable(value) || drafts.copies.has(value) || !hasOwn(target, key))
          return value;
        const draft = drafts.of(value);
        defineOwn(target, key, draft);
        return draft;
      },
      set(target, key, value) {
        const record = target as Record<PropertyKey, unknown>;
        if (hasOwn(target, key) && Object.is(record[key], value)) return true;
        drafts.changed = true;
        // A `__proto__` field is data (a row keyed `__proto__`), never the copy's prototype.
        if (key === '__proto__') return Reflect.defineProperty(target, key, dataField(value));
        return Reflect.set(target, key, value);
      },
      deleteProperty(target, key) {
        if (hasOwn(target, key)) drafts.changed = true;
        return Reflect.deleteProperty(target, key);
      },
      defineProperty(target, key, descriptor) {
        drafts.changed = true;
        return Reflect.defineProperty(target, key, descriptor);
      },
    };
  }

  /** The draft of `value` (made on first use). */
  of(value: object): object {
    let draft = this.byObject.get(value);
    if (draft === undefined) {
      const copy = shallowCopy(value);
      const { proxy, revoke } = Proxy.revocable(copy, this.handler);
      draft = proxy;
      this.byObject.set(value, draft);
      this.copies.set(draft, copy);
      this.revokers.push(revoke);
    }
    return draft;
  }

  /**
   * What a value of the result stands for: a draft's copy, also where the value is the object a
   * draft was made of (a path the updater did not go down), or else the value itself.
   */
  resolve(value: object): object {
    const draft = this.byObject.get(value) ?? value;
    return this.copies.get(draft) ?? value;
  }

  revoke(): void {
    for (const revoke of this.revokers) revoke();
  }
}

/** A plain container on the way from the nearest entity (to tell a cycle made in raw data). */
interface Chain {
  readonly source: object;
  readonly out: object;
  readonly up: Chain | undefined;
}

/** One object to fill: its source, its output, and the fields to leave out (a repeated entity's nested values). */
type Pending = readonly [source: object, out: object, chain: Chain | undefined, skip: object | undefined];

/**
 * The value to write: a new tree that the write walks once per distinct entity. The value may be
 * a graph (shared entities, cycles), and a write walks what it is given as a tree, so each entity
 * is written in full once, at its first place in breadth-first order (the shallowest, so the
 * write nests no deeper than the read did), and as its own fields only everywhere else: its
 * nested values are written from its full place, and the default merge combines the two into
 * the same row. An entity class with its own `merge` or `process` could treat that short form
 * differently, so its repeats are the same object as its full place: the write then merges them
 * as it does a response's repeated rows, and cuts a cycle back to one on the way as a ref.
 */
function writable(value: unknown, drafts: Drafts): unknown {
  const full = new Map<object, object>();
  const pending: Pending[] = [];
  const emit = (field: unknown, chain: Chain | undefined): unknown => {
    if (typeof field !== 'object' || field === null) return field;
    const source = drafts.resolve(field);
    if (!isDraftable(source)) return source;
    if (source instanceof Entity) {
      const placed = full.get(source);
      if (placed === undefined) return open(source, undefined, undefined);
      const schema = shortForm(source);
      return schema === undefined ? placed : open(source, undefined, schema);
    }
    // Raw data the updater made cyclic: the same output, which the write refuses as a cycle.
    for (let link = chain; link !== undefined; link = link.up) if (link.source === source) return link.out;
    return open(source, chain, undefined);
  };
  const open = (source: object, chain: Chain | undefined, skip: object | undefined): object => {
    const out = Array.isArray(source) ? [] : (Object.create(Object.getPrototypeOf(source) as object | null) as object);
    if (source instanceof Entity && skip === undefined) full.set(source, out);
    pending.push([source, out, source instanceof Entity ? undefined : { source, out, up: chain }, skip]);
    return out;
  };
  const top = emit(value, undefined);
  for (let i = 0; i < pending.length; i++) {
    const [source, out, chain, skip] = pending[i]!;
    const fields = source as Record<string, unknown>;
    if (Array.isArray(source)) {
      const list = out as unknown[];
      for (let j = 0; j < source.length; j++) list.push(emit(source[j], chain));
      continue;
    }
    for (const key of Object.keys(source)) {
      if (skip === undefined || !hasOwn(skip, key)) defineOwn(out, key, emit(fields[key], chain));
    }
  }
  return top;
}

/**
 * The schema of an entity's nested fields when a repeat of it may be written as its own fields
 * only (its class keeps the default `merge` and `process`); undefined otherwise.
 */
function shortForm(entity: Entity): object | undefined {
  const cls = entity.constructor as typeof Entity;
  if (cls.merge !== Entity.merge || cls.process !== Entity.process) return undefined;
  return (cls.schema as object | undefined) ?? {};
}

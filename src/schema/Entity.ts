/**
 * Entity: a class whose instances are stored once per pk, in the table `static key`.
 * See docs/Entity.md.
 */

import type { WriteMeta } from '../base/patch.js';
import type { DenormalizeDelegate, NormalizeDelegate, QueryDelegate, RootInput, Row, ValueWriter } from './contract.js';
import { denormalizeEntity, memberReader } from './entityDenormalize.js';
import { entityInfo } from './entityInfo.js';
import { lookupIndex } from './entityIndexes.js';
import { entityWriter, normalizeEntity } from './entityNormalize.js';
import { isUsablePk } from './pk.js';
import { setupError } from '../base/errors.js';
import { defineOwn } from '../base/dict.js';

/**
 * The base class of every entity.
 *
 * @example
 * ```ts
 * class User extends Entity { id = ''; name = ''; }
 * class Post extends Entity {
 *   id = ''; title = ''; author = User.fromJS();
 *   static key = 'Post';
 *   static schema = { author: User };
 * }
 * ```
 * @see docs/Entity.md
 */
export abstract class Entity {
  /**
   * The table name. Defaults to the class name, refused (ENTITY_KEY_REQUIRED) when the class has
   * no name or a minified-looking one; set it explicitly in code that ships minified.
   */
  declare static key: string;
  /** Nested schemas by field name. */
  declare static schema: Record<string, unknown> | undefined;
  /** Fields to look entities up by besides the pk: `selectQuery(User, { username })`. See docs/Entity.md. */
  declare static indexes: readonly string[] | undefined;
  /** An array is let through to `normalize`, which accepts it when a custom `process` makes it an object. */
  static readonly rootInput: RootInput = 'object-or-list';

  /** The pk of this instance's data; defaults to `id`. Override it or `static pk`. */
  pk(parent?: unknown, key?: string, args?: readonly unknown[]): string | number | undefined {
    return (this as unknown as { id?: string | number }).id;
  }

  /** The pk of a (processed) input value; defaults to calling the instance `pk()` on it. */
  static pk(value: object, parent?: unknown, key?: string, args?: readonly unknown[]): unknown {
    return this.prototype.pk.call(value, parent, key, args);
  }

  /** Turns the raw input into the object to store; return `undefined` to delete the entity. */
  static process(
    input: object,
    parent: unknown,
    key: string | undefined,
    args: readonly unknown[],
  ): object | undefined {
    return { ...input };
  }

  /** Merges an incoming row into an existing one; by default incoming fields win. */
  static merge(existing: object, incoming: object): object {
    return { ...existing, ...incoming };
  }

  /** True when the incoming write must not replace the stored one: by default, it started earlier. */
  static shouldReorder(existingMeta: WriteMeta, incomingMeta: WriteMeta, existing: Row, incoming: Row): boolean {
    return incomingMeta.fetchedAt < existingMeta.fetchedAt;
  }

  /**
   * Whether `shouldReorder` orders by the rows' own versions (a class that overrides it): then it,
   * not the arrival order, decides overlapping mutation answers (docs/mutations.md).
   */
  static get versioned(): boolean {
    return this.shouldReorder !== Entity.shouldReorder;
  }

  /** Returns an error message when the processed input must be rejected (and the row read as invalid). */
  static validate(processed: object): string | undefined {
    return undefined;
  }

  /** An instance with the class defaults and the given fields, e.g. as a field initialiser. */
  static fromJS<T extends Entity>(this: new () => T, props: Partial<T> = {}): T {
    const instance = new this();
    for (const key of Object.keys(props)) defineOwn(instance, key, (props as Record<string, unknown>)[key]);
    return instance;
  }

  /** @internal The walk contract (schema/contract.ts). */
  static normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    return normalizeEntity(
      this as unknown as EntityClass,
      infoOf(this as unknown as EntityClass),
      input,
      parent,
      key,
      delegate,
    );
  }

  /** @internal */
  static denormalize(input: unknown, delegate: DenormalizeDelegate): unknown {
    return denormalizeEntity(this as unknown as EntityClass, infoOf(this as unknown as EntityClass), input, delegate);
  }

  /** @internal A pk from `args[0]` (a pk, or an object to compute one from); a hit needs a row or tombstone. */
  static queryKey(args: readonly unknown[], delegate: QueryDelegate): unknown {
    const first = args[0];
    if (first === undefined || first === null || first === '') return undefined;
    if (typeof first === 'object') {
      const indexed = lookupIndex(this, first, delegate);
      if (indexed !== null) return indexed;
    }
    const pk =
      typeof first === 'string' || typeof first === 'number'
        ? first
        : typeof first === 'object'
          ? this.pk(first, undefined, undefined, args)
          : undefined;
    if (!isUsablePk(pk)) return undefined;
    const rowKey = String(pk);
    return delegate.row(this.key, rowKey) === undefined ? undefined : rowKey;
  }
}

// `static key` defaults to the class name; a subclass's own `static key = '…'` shadows this getter.
Object.defineProperty(Entity, 'key', {
  get(this: Function) {
    if (!isUsableClassName(this.name)) throw keyRequired(this.name);
    return this.name;
  },
  configurable: true,
  enumerable: false,
});

/**
 * Whether a class name can serve as a table name. A minifier renames classes to one or two
 * letters (`Ie`), differently in every build, so such names are refused, as is every name when
 * this very module was minified (its `Entity` class then has another name): a table named after
 * them would change under the next build, and persisted or server-rendered state would no
 * longer match.
 */
function isUsableClassName(name: string): boolean {
  return name.length > 2 && Entity.name === 'Entity';
}

function keyRequired(name: string): Error {
  return setupError(
    'ENTITY_KEY_REQUIRED',
    process.env.NODE_ENV !== 'production' && [
      `${
        name === ''
          ? 'An Entity class has no name (an anonymous class), so it has no default key.'
          : `The Entity class "${name}" has no \`static key\`, and its name looks minified (it would become the table name).`
      } Its table name would change from build to build.`,
      "Give the class a `static key`, e.g. `static key = 'User';` (or build with esbuild's --keep-names / terser's keep_classnames).",
    ],
    name,
  );
}

/** Any concrete Entity subclass. */
export type EntityClass<T extends Entity = Entity> = (new () => T) & Omit<typeof Entity, 'prototype'>;

export function isEntityClass(value: unknown): value is EntityClass {
  return typeof value === 'function' && value.prototype instanceof Entity;
}

/**
 * @internal How a list reads members of `schema`: an Entity class's refs without the walker's
 * dispatch per ref, anything else through it (docs/benchmarks.md).
 */
export function readsMembers(schema: unknown, delegate: DenormalizeDelegate): (ref: unknown) => unknown {
  return memberReader(schema, Entity as unknown as EntityClass, delegate);
}

/**
 * @internal How a list writes members of `schema`: an Entity class's input through its writer,
 * without the walker's dispatch per item; undefined for anything else (the dispatch applies).
 */
export function writesMembers(schema: unknown): ValueWriter | undefined {
  return entityWriter(schema, Entity as unknown as EntityClass);
}

/** @internal The per-class facts the walkers use. */
export function infoOf(cls: EntityClass) {
  return entityInfo(cls, Entity as unknown as EntityClass);
}

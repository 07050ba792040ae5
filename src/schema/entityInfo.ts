/**
 * What an Entity class needs on every read and write, computed once per class: its field
 * schemas as entries, and its defaults (field initialisers) as a template instance.
 */

import { warnOnce } from '../base/env.js';
import { setOwn } from '../base/dict.js';
import { Lru } from '../base/Lru.js';
import { describe, ErrorCode, setupError } from '../base/errors.js';
import type { RowBuilder, RowPolicy } from './contract.js';

export interface EntityInfo {
  /** The `static schema` object the entries were computed from (recomputed if it is replaced). */
  schemaSource: object | undefined;
  schemaEntries: ReadonlyArray<readonly [string, unknown]>;
  /** Field initialiser values, copied onto every denormalized instance. */
  defaultEntries: ReadonlyArray<readonly [string, unknown]>;
  defaultKeys: ReadonlySet<string>;
  /** The same defaults as one plain object, copied onto an instance in one step. */
  defaults: object;
  /** Whether each of `schemaEntries` is a Scalar (recognized by shape). */
  schemaScalars: readonly boolean[];
  /** How a read resolves each of `schemaEntries` (entityDenormalize.ts). */
  fieldReads: readonly FieldRead[];
  /** The Entity base class, for the infos of the classes `fieldReads` name. */
  base: EntityLike;
  /** What builds this class's instances from rows (set by the first read). */
  builder: RowBuilder | undefined;
  /**
   * True when assigning any row field to an instance does what defining it would: no name on the
   * class's prototypes is an accessor or read-only, save initialised fields and `__proto__`. Reads then copy a row onto the instance in one step (docs/benchmarks.md, "Cold paths").
   */
  assignsRows: boolean;
  /** Fields whose initialiser is truthy: an invalid nested value makes the entity invalid. */
  required: ReadonlySet<string>;
  /** Whether the class keeps the base `process`, `validate` and pk, so the walkers can skip work. */
  defaultProcess: boolean;
  defaultValidate: boolean;
  defaultMerge: boolean;
  defaultPk: boolean;
}

/** A field read through any schema: the read walker's dispatch (denormalize/unvisit.ts). */
export const READ_ANY = 0;
/** A field holding a ref to an Entity class that reads as Entity does. */
export const READ_ENTITY = 1;
/** A field holding a list of refs to one such Entity class (`[Comment]`). */
export const READ_ENTITY_LIST = 2;
/** A Scalar field. */
export const READ_SCALAR = 3;

/**
 * How a read resolves one schema field, found once per class: the common fields (a nested
 * entity, a list of them, a Scalar) are read directly, without the dispatch on the schema's kind
 * and the class lookups that every ref would otherwise pay (docs/benchmarks.md).
 */
export interface FieldRead {
  readonly field: string;
  readonly schema: unknown;
  readonly kind: number;
  /** The Entity class of READ_ENTITY and READ_ENTITY_LIST. */
  readonly child: EntityLike | undefined;
  /** Its info, found at the first read (the classes of a schema may be defined after it). */
  childInfo: EntityInfo | undefined;
}
/**
 * What the entity walkers (entityInfo, entityNormalize, entityDenormalize) use of an Entity
 * class. Entity.ts imports the walkers, so they name the class by this shape instead of
 * importing it: the imports stay one way (docs/architecture.md, "Layers").
 */
export interface EntityLike extends RowPolicy {
  new (): object;
  readonly key: string;
  readonly schema?: Record<string, unknown> | undefined;
  readonly indexes?: readonly string[] | undefined;
  pk(value: object, parent?: unknown, key?: string, args?: readonly unknown[]): unknown;
  process(input: object, parent: unknown, key: string | undefined, args: readonly unknown[]): object | undefined;
  validate(processed: object): string | undefined;
  readonly prototype: { pk: Function };
}

const infos = new WeakMap<Function, EntityInfo>();
/**
 * The class last seen for each table name, for the shared-key warning (development only). Held
 * weakly, and bounded: an app has far fewer tables, and classes made on the fly (tests, hot
 * reloads) must not grow it without end. A twin seen more than this many keys ago goes unwarned.
 */
const classesByKey = new Lru<string, WeakRef<Function>>(1_000);

/** `base` is the Entity class itself, passed in to keep this module free of an import cycle. */
export function entityInfo(cls: EntityLike, base: EntityLike): EntityInfo {
  const cached = infos.get(cls);
  if (cached && cached.schemaSource === cls.schema) return cached;
  const info = computeInfo(cls, base, cached);
  infos.set(cls, info);
  return info;
}

function computeInfo(cls: EntityLike, base: EntityLike, previous: EntityInfo | undefined): EntityInfo {
  const schema = cls.schema;
  const schemaEntries = schema ? Object.entries(schema) : [];
  const schemaScalars = scalarFlags(schemaEntries);
  const fieldReads = readsOf(schemaEntries, schemaScalars, base);
  if (previous)
    return { ...previous, schemaSource: schema, schemaEntries, schemaScalars, fieldReads, builder: undefined };
  checkKey(cls);
  if (process.env.NODE_ENV !== 'production') {
    noteKey(cls);
    if (keyOwner(cls) === base) warnClassNameKey(cls);
  }
  const template = new cls() as Record<string, unknown>;
  const defaultEntries = Object.keys(template).map(key => [key, template[key]] as const);
  const defaultKeys = new Set(defaultEntries.map(([key]) => key));
  const defaults: Record<string, unknown> = {};
  for (const [key, value] of defaultEntries) setOwn(defaults, key, value);
  return {
    schemaSource: schema,
    schemaEntries,
    defaultEntries,
    defaultKeys,
    defaults,
    schemaScalars,
    fieldReads,
    base,
    builder: undefined,
    assignsRows: !hasGuardedNames(cls.prototype, defaultKeys),
    required: new Set(defaultEntries.filter(([, value]) => Boolean(value)).map(([key]) => key)),
    defaultProcess: cls.process === base.process,
    defaultValidate: cls.validate === base.validate,
    defaultMerge: cls.merge === base.merge,
    defaultPk: cls.pk === base.pk && cls.prototype.pk === base.prototype.pk,
  };
}

function readsOf(
  entries: ReadonlyArray<readonly [string, unknown]>,
  scalars: readonly boolean[],
  base: EntityLike,
): FieldRead[] {
  return entries.map(([field, schema], i) => {
    let kind = READ_ANY;
    let child: EntityLike | undefined;
    if (scalars[i]) kind = READ_SCALAR;
    else if (readsAsEntity(schema, base)) {
      kind = READ_ENTITY;
      child = schema;
    } else if (Array.isArray(schema) && schema.length === 1 && readsAsEntity(schema[0], base)) {
      kind = READ_ENTITY_LIST;
      child = schema[0];
    }
    return { field, schema, kind, child, childInfo: undefined };
  });
}

/** An Entity class that keeps Entity's own read (a class overriding `denormalize` reads through it). */
export function readsAsEntity(schema: unknown, base: EntityLike): schema is EntityLike {
  return (
    typeof schema === 'function' &&
    schema.prototype instanceof base &&
    (schema as unknown as { denormalize: unknown }).denormalize ===
      (base as unknown as { denormalize: unknown }).denormalize
  );
}

/** Scalars are recognized by shape, which keeps this module free of an import cycle. */
function scalarFlags(entries: ReadonlyArray<readonly [string, unknown]>): boolean[] {
  return entries.map(
    ([, schema]) =>
      typeof schema === 'object' &&
      schema !== null &&
      typeof (schema as { denormalizeField?: unknown }).denormalizeField === 'function',
  );
}

/**
 * Whether a prototype of the class names an accessor or a read-only property that is not an
 * initialised field. (`__proto__`, Object.prototype's accessor, is left to the read, which checks
 * each row for it.) Computed when the class is first used, as the rest of its info.
 */
function hasGuardedNames(proto: object, fields: ReadonlySet<string>): boolean {
  for (let at: object | null = proto; at !== null; at = Object.getPrototypeOf(at)) {
    for (const name of Object.getOwnPropertyNames(at)) {
      if (name === '__proto__' || fields.has(name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(at, name)!;
      if (descriptor.get || descriptor.set || descriptor.writable === false) return true;
    }
  }
  return false;
}

/** An explicit `static key` must name a table: a non-empty string. (The default is checked by Entity's getter.) */
function checkKey(cls: EntityLike): void {
  const key: unknown = cls.key;
  if (typeof key === 'string' && key !== '') return;
  throw setupError(
    ErrorCode.ENTITY_KEY_REQUIRED,
    process.env.NODE_ENV !== 'production' && [
      `The Entity class ${cls.name ? `"${cls.name}"` : '(anonymous)'} has the static key ${describe(key)}; a key names its table, so it must be a non-empty string.`,
      "Set `static key` to the table name, e.g. `static key = 'User';`.",
    ],
  );
}

/** The class, itself or an ancestor, that defines the `key` the class reads. */
function keyOwner(cls: EntityLike): unknown {
  let at: unknown = cls;
  while (typeof at === 'function' && !Object.prototype.hasOwnProperty.call(at, 'key')) at = Object.getPrototypeOf(at);
  return at;
}

/**
 * A table named after the class works in development and breaks in a production bundle that
 * shortens class names (docs/Entity.md#keys), so the default key is worth a warning while the
 * names are still whole. Entity's getter has already refused names that look minified.
 */
function warnClassNameKey(cls: EntityLike): void {
  warnOnce(
    `The Entity class "${cls.name}" has no \`static key\`, so its table is named after the class. ` +
      'A production build that shortens class names would name it differently or refuse it. ' +
      `Add \`static override key = '${cls.name}';\` (\`static key\` in JavaScript) to the class.`,
  );
}

/** Two classes with one key share the table (docs/Entity.md); that is allowed, but rarely meant. */
function noteKey(cls: EntityLike): void {
  const other = classesByKey.get(cls.key)?.deref();
  if (other && other !== cls) {
    warnOnce(
      `Two Entity classes use the key "${cls.key}" (${other.name || 'anonymous'} and ${cls.name || 'anonymous'}); ` +
        'they share one table. Give each class its own `static key` unless that is intended.',
    );
  }
  classesByKey.set(cls.key, new WeakRef(cls));
}

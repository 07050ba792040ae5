/**
 * What an Entity class needs on every read and write, computed once per class: its field
 * schemas as entries, and its defaults (field initialisers) as a template instance.
 */

import { warnOnce } from '../base/env.js';
import { setOwn } from '../base/dict.js';
import { Lru } from '../base/Lru.js';
import { describe, setupError } from '../base/errors.js';
import type { RowBuilder, RowPolicy, ValueWriter } from './contract.js';

export interface EntityInfo {
  /** The `static schema` object the entries were computed from (recomputed if it is replaced). */
  schemaSource: object | undefined;
  schemaEntries: ReadonlyArray<readonly [string, unknown]>;
  /** The names of `schemaEntries`. */
  schemaFields: ReadonlySet<string>;
  /** Field initialiser values, copied onto every denormalized instance. */
  defaultEntries: ReadonlyArray<readonly [string, unknown]>;
  defaultKeys: ReadonlySet<string>;
  /** The same defaults as one plain object, copied onto an instance in one step. */
  defaults: object;
  /** Whether each of `schemaEntries` is a Scalar (recognized by shape). */
  schemaScalars: readonly boolean[];
  /** How the walkers go into each of `schemaEntries` (fieldPlans.ts). */
  fieldPlans: readonly FieldPlan[];
  /** The Entity base class, for the infos of the classes `fieldPlans` name. */
  base: EntityLike;
  /** What builds this class's instances from rows (set by the first read). */
  builder: RowBuilder | undefined;
  /** What normalizes this class's input where a field or a list holds it (set by the first write). */
  writer: ValueWriter | undefined;
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
  /**
   * No schema fields, no indexes, and the base process, merge, validate and pk: a row that is
   * the input's fields, merged field by field when the input repeats (NormalizeDelegate.mergeRepeat).
   */
  plainLeaf: boolean;
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
const classesByKey = /* @__PURE__ */ new Lru<string, WeakRef<Function>>(1_000);

/** `base` is the Entity class itself, passed in to keep this module free of an import cycle. */
export function entityInfo(cls: EntityLike, base: EntityLike): EntityInfo {
  const cached = infos.get(cls);
  if (cached && cached.schemaSource === cls.schema) return cached;
  const info = computeInfo(cls, base, cached);
  infos.set(cls, info);
  return info;
}

function computeInfo(cls: EntityLike, base: EntityLike, previous: EntityInfo | undefined): EntityInfo {
  // What follows from `static schema`, found again when it is replaced.
  const schema = cls.schema;
  const schemaEntries = schema ? Object.entries(schema) : [];
  const schemaScalars = scalarFlags(schemaEntries);
  const fieldPlans = plansOf(schemaEntries, schemaScalars, base);
  const ofSchema = {
    schemaSource: schema,
    schemaEntries,
    schemaFields: new Set(schemaEntries.map(([field]) => field)),
    schemaScalars,
    fieldPlans,
    builder: undefined,
    writer: undefined,
  };
  const isPlainLeaf = (methods: DefaultMethods) =>
    methods.defaultProcess &&
    methods.defaultValidate &&
    methods.defaultMerge &&
    methods.defaultPk &&
    fieldPlans.length === 0 &&
    !cls.indexes;
  if (previous) return { ...previous, ...ofSchema, plainLeaf: isPlainLeaf(previous) };
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
  const methods: DefaultMethods = {
    defaultProcess: cls.process === base.process,
    defaultValidate: cls.validate === base.validate,
    defaultMerge: cls.merge === base.merge,
    defaultPk: cls.pk === base.pk && cls.prototype.pk === base.prototype.pk,
  };
  return {
    ...ofSchema,
    ...methods,
    defaultEntries,
    defaultKeys,
    defaults,
    base,
    assignsRows: !hasGuardedNames(cls.prototype, defaultKeys),
    required: new Set(defaultEntries.filter(([, value]) => Boolean(value)).map(([key]) => key)),
    plainLeaf: isPlainLeaf(methods),
  };
}

/** Which of Entity's static methods a class keeps as they are. */
type DefaultMethods = Pick<EntityInfo, 'defaultProcess' | 'defaultValidate' | 'defaultMerge' | 'defaultPk'>;

/*
 * How the walkers go into each schema field of a class, found with the rest of its info: a nested
 * entity, a list of them and a Scalar field are read and written directly, without the dispatch
 * on the schema's kind and the class lookup that every ref would otherwise pay
 * (docs/benchmarks.md, "The first render"). Anything else goes through the walker's dispatch.
 */

/** A field of any other schema. */
export const FIELD_ANY = 0;
/** A field holding a ref to an Entity class (`author: User`). */
export const FIELD_ENTITY = 1;
/** A field holding a list of refs to one Entity class (`comments: [Comment]`). */
export const FIELD_ENTITY_LIST = 2;
/** A Scalar field. */
export const FIELD_SCALAR = 3;

export interface FieldPlan {
  readonly field: string;
  readonly schema: unknown;
  readonly kind: number;
  /** The Entity class of FIELD_ENTITY and FIELD_ENTITY_LIST. */
  readonly child: EntityLike | undefined;
  /** Whether that class keeps Entity's own read: one that overrides `denormalize` is read through it. */
  readonly reads: boolean;
  /** Whether it keeps Entity's own write: one that overrides `normalize` is written through it. */
  readonly writes: boolean;
  /** Its info, found at the first use (the classes of a schema may be defined after it). */
  childInfo: EntityInfo | undefined;
}

export function plansOf(
  entries: ReadonlyArray<readonly [string, unknown]>,
  scalars: readonly boolean[],
  base: EntityLike,
): FieldPlan[] {
  return entries.map(([field, schema], i) => {
    let kind = FIELD_ANY;
    let child: EntityLike | undefined;
    if (scalars[i]) kind = FIELD_SCALAR;
    else if (isEntitySubclass(schema, base)) {
      kind = FIELD_ENTITY;
      child = schema;
    } else if (Array.isArray(schema) && schema.length === 1 && isEntitySubclass(schema[0], base)) {
      kind = FIELD_ENTITY_LIST;
      child = schema[0];
    }
    return {
      field,
      schema,
      kind,
      child,
      reads: child !== undefined && keeps(child, base, 'denormalize'),
      writes: child !== undefined && keeps(child, base, 'normalize'),
      childInfo: undefined,
    };
  });
}

/** An Entity class that keeps Entity's own read, so a list of it may be read without the dispatch. */
export function readsAsEntity(schema: unknown, base: EntityLike): schema is EntityLike {
  return isEntitySubclass(schema, base) && keeps(schema, base, 'denormalize');
}

/** An Entity class that keeps Entity's own write, so a list of it may be written without the dispatch. */
export function writesAsEntity(schema: unknown, base: EntityLike): schema is EntityLike {
  return isEntitySubclass(schema, base) && keeps(schema, base, 'normalize');
}

function isEntitySubclass(schema: unknown, base: EntityLike): schema is EntityLike {
  return typeof schema === 'function' && schema.prototype instanceof base;
}

function keeps(cls: EntityLike, base: EntityLike, method: 'normalize' | 'denormalize'): boolean {
  return (cls as unknown as Record<string, unknown>)[method] === (base as unknown as Record<string, unknown>)[method];
}

/** The info of a plan's Entity class, found once (again if the class's `static schema` was replaced). */
export function childInfo(plan: FieldPlan, base: EntityLike): EntityInfo {
  const cached = plan.childInfo;
  const child = plan.child!;
  if (cached !== undefined && cached.schemaSource === child.schema) return cached;
  return (plan.childInfo = entityInfo(child, base));
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
    'ENTITY_KEY_REQUIRED',
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

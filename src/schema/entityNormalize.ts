/** How an Entity turns input into a row and a ref (docs/Entity.md). */

import { describe, inputError } from '../base/errors.js';
import { hasOwn, isObject, isPlainRecord, isRecord, setOwn } from '../base/dict.js';
import { DEVELOPMENT, warnOnce } from '../base/env.js';
import type { NormalizeDelegate, RowPolicy, ValueWriter } from './contract.js';
import {
  childInfo,
  entityInfo,
  FIELD_ENTITY,
  writesAsEntity,
  type EntityInfo,
  type EntityLike,
  type FieldPlan,
} from './entityInfo.js';
import type { RowChecker } from '../base/checkRow.js';
import { isUsablePk } from './pk.js';
import { warnUnknownIndexes, writeIndexes } from './entityIndexes.js';

export function normalizeEntity(
  cls: EntityLike,
  info: EntityInfo,
  input: unknown,
  parent: unknown,
  key: string | undefined,
  delegate: NormalizeDelegate,
): unknown {
  // A string or number in a nested position is a ref to a row stored earlier (docs/plain-schemas.md).
  if (typeof input === 'string' || typeof input === 'number') return String(input);
  // An array is accepted when a custom `process` turns it into an object (an order book's
  // `[price, size]` rows); the object check then applies to what `process` returns.
  if (!isObject(input) || (Array.isArray(input) && info.defaultProcess)) {
    throw inputError(
      'UNEXPECTED_INPUT',
      process.env.NODE_ENV !== 'production' && [
        `${cls.key} expected an object${key === undefined ? '' : ` at "${key}"`}, but received ${describe(input)}.`,
        Array.isArray(input)
          ? `Use [${cls.key}] (or a Collection) in the schema where the response holds a list.`
          : 'Check that the schema matches the response.',
      ],
      cls.key,
    );
  }
  const table = cls.key;
  const seen = delegate.seen(input, table);
  if (seen !== undefined) return seen;

  // A leaf entity met again in this write (a user who wrote many of the posts): merged into the
  // row queued for it, as the steps below would, without a copy of the input made to be merged.
  if (info.plainLeaf) {
    const id = (input as { id?: unknown }).id;
    if (isUsablePk(id) && delegate.mergeRepeat(table, String(id), input, cls)) return String(id);
  }
  const args = delegate.args;
  // With the base process and validate, the process's copy is made below, when the row is known.
  const plain = info.defaultProcess && info.defaultValidate;
  const processed = plain ? input : cls.process(input, parent, key, args);
  if (processed === undefined) {
    const pk = cls.pk(input, parent, key, args);
    if (!isUsablePk(pk) && Array.isArray(input) && parent !== input) return unnamedDeletion(cls, input, pk);
    const rowKey = checkedPk(cls, info, pk, input);
    writeIndexes(cls, rowKey, null, delegate);
    delegate.setRow(table, rowKey, null, cls);
    return rowKey;
  }
  if (!isRecord(processed)) {
    throw inputError(
      'UNEXPECTED_INPUT',
      process.env.NODE_ENV !== 'production' && [
        `${cls.key}.process() returned ${describe(processed)}${Array.isArray(input) ? ` for the array ${describe(input)}` : ''}; expected an object (or undefined to delete).`,
        Array.isArray(input)
          ? `Return an object from ${cls.key}.process(), or use [${cls.key}] in the schema where the response holds a list.`
          : `Return an object from ${cls.key}.process().`,
      ],
      cls.key,
    );
  }
  const pk = info.defaultPk ? (processed as { id?: unknown }).id : cls.pk(processed, parent, key, args);
  const rowKey = isUsablePk(pk) ? String(pk) : (delegate.placeholderPk(input) ?? checkedPk(cls, info, pk, processed));
  if (!info.defaultValidate) {
    const message = cls.validate(processed);
    if (message) {
      throw inputError(
        'VALIDATION_FAILED',
        process.env.NODE_ENV !== 'production' && [
          `${cls.key} "${rowKey}" failed validation: ${message}`,
          `Fix the data, or relax ${cls.key}.validate().`,
        ],
        `${cls.key} ${rowKey}`,
      );
    }
  }
  const checker = delegate.checker;
  // A row the store lacks is built from checked copies of the input's fields, and frozen as it is
  // when stored (docs/benchmarks.md, "The first render"); one the store has is compared with the
  // input first, so an identical refetch checks and copies nothing.
  const builds = plain && delegate.storedRow(table, rowKey) === undefined;
  let row: Record<string, unknown>;
  if (builds) row = checkedFields(input, info, table, rowKey, checker);
  else if (plain) row = cls.process(input, parent, key, args) as Record<string, unknown>;
  // The default process made a copy this walk owns; anything else may be the caller's object.
  else row = (info.defaultProcess ? processed : { ...processed }) as Record<string, unknown>;
  delegate.enterEntity(input, table, rowKey, row, cls.schema);
  try {
    const plans = info.fieldPlans;
    for (let i = 0; i < plans.length; i++) {
      const plan = plans[i]!;
      const field = plan.field;
      if (!hasOwn(row, field)) continue;
      const value = row[field];
      if (value === undefined) continue;
      // A nested entity is written by its class's writer; a list of them through the dispatch
      // to normalizeArray, which writes its members the same way.
      const ref =
        plan.writes && plan.kind === FIELD_ENTITY
          ? delegate.visitWith(entityWriterOf(plan, info.base), value, row, field)
          : delegate.visit(plan.schema, value, row, field);
      // A list of refs the walk just made is frozen where it is; any other value is checked.
      if (!builds) setOwn(row, field, ref);
      else
        setOwn(
          row,
          field,
          plan.writes && Array.isArray(ref) ? Object.freeze(ref) : checker.field(ref, table, rowKey, field),
        );
    }
  } finally {
    delegate.leaveEntity();
  }
  // (`process.env` is slow to read in Node: asked only for classes with indexes, and after the
  // cached flag; bundlers still fold the literal test out of production bundles.)
  if (DEVELOPMENT && cls.indexes && process.env.NODE_ENV !== 'production')
    warnUnknownIndexes(cls, info.defaultKeys, row);
  writeIndexes(cls, rowKey, row, delegate);
  // The row is this walk's own copy (made above or by the default process): it may be frozen in place.
  delegate.setRow(table, rowKey, row, info.defaultMerge ? cls : checkedMergePolicy(cls, info), true, builds);
  return rowKey;
}

/**
 * A row of `input`'s own defined fields: checked copies (base/checkRow.ts), save the schema fields,
 * kept as they came for the walk to normalize and replace. Built field by field on a new object.
 */
function checkedFields(
  input: object,
  info: EntityInfo,
  table: string,
  rowKey: string,
  checker: RowChecker,
): Record<string, unknown> {
  const from = input as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  const fields = Object.keys(from);
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    const value = from[field];
    if (value === undefined) continue;
    setOwn(row, field, info.schemaFields.has(field) ? value : checker.field(value, table, rowKey, field));
  }
  return row;
}

/**
 * The writer of `schema` when it is an Entity class that keeps Entity's own write (one object per
 * class), else undefined: the walker's dispatch then applies. Fields holding one such class, and
 * plain lists of one (plainArray.ts), are written through it without the dispatch.
 */
export function entityWriter(schema: unknown, base: EntityLike): ValueWriter | undefined {
  if (!writesAsEntity(schema, base)) return undefined;
  const info = entityInfo(schema, base);
  return (info.writer ??= new EntityWriter(schema, info));
}

/** The writer of a FIELD_ENTITY plan's class (its info found through the plan, once). */
function entityWriterOf(plan: FieldPlan, base: EntityLike): ValueWriter {
  const info = childInfo(plan, base);
  return (info.writer ??= new EntityWriter(plan.child!, info));
}

/** Normalizes one Entity class's input: one object per class, not a dispatch per ref. */
class EntityWriter implements ValueWriter {
  declare private readonly cls: EntityLike;
  declare private readonly info: EntityInfo;

  constructor(cls: EntityLike, info: EntityInfo) {
    this.cls = cls;
    this.info = info;
  }

  write(value: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    return normalizeEntity(this.cls, this.info, value, parent, key, delegate);
  }
}

/**
 * `process` returned `undefined` (delete) for a tuple in a list or a field (an order book's
 * `[price, 0]`: "this level is gone"), and `pk()` cannot read the tuple: the entity cannot be
 * named, so nothing is deleted and the item leaves the response (a development warning says how
 * to name it), rather than the whole write failing (docs/Entity.md).
 */
function unnamedDeletion(cls: EntityLike, input: readonly unknown[], pk: unknown): undefined {
  if (process.env.NODE_ENV !== 'production')
    warnOnce(
      `${cls.key}.process() returned undefined (delete) for ${describe(input)}, but pk() gives ${describe(pk)} for it, ` +
        'so no entity can be deleted; the item is left out. ' +
        `To delete it, make ${cls.key}.pk() read the tuple too, e.g. static pk(value) { return Array.isArray(value) ? String(value[0]) : value.id; } when the tuple starts with the pk.`,
    );
  return undefined;
}

/** The row key for a pk, or MISSING_PK (docs/Entity.md). */
export function checkedPk(cls: EntityLike, info: EntityInfo, pk: unknown, value: object): string {
  if (isUsablePk(pk)) return String(pk);
  throw inputError(
    'MISSING_PK',
    process.env.NODE_ENV !== 'production' && [
      `${cls.key} has no usable pk: pk() returned ${describe(pk)} for ${describe(value)}.`,
      info.defaultPk
        ? `The default pk reads \`id\`; the input has ${hasOwn(value, 'id') ? `id = ${describe((value as { id: unknown }).id)}` : 'no `id`'}. ` +
          `Send an id, or override pk() on ${cls.key}.`
        : `Make ${cls.key}.pk() return a non-empty string or a finite number for this input.`,
    ],
    cls.key,
  );
}

const mergePolicies = new WeakMap<EntityLike, RowPolicy>();

/**
 * A custom `merge` must return a plain object: the row goes into a Redux store that stays JSON
 * (a `merge` returning `Article.fromJS(...)` would store a class instance). Its fields come from
 * the two rows, which were checked already.
 */
function checkedMergePolicy(cls: EntityLike, info: EntityInfo): RowPolicy {
  let policy = mergePolicies.get(cls);
  if (policy) return policy;
  policy = {
    merge(existing, incoming) {
      const merged: unknown = cls.merge(existing, incoming);
      if (isPlainRecord(merged)) return merged;
      throw inputError(
        'UNEXPECTED_INPUT',
        process.env.NODE_ENV !== 'production' && [
          `${cls.key}.merge() returned ${describe(merged)}; a row is stored as a plain object (the store stays JSON).`,
          `Return a plain object from ${cls.key}.merge(), e.g. { ...existing, ...incoming }; reads build the ${cls.key} instance.`,
        ],
        cls.key,
      );
    },
    shouldReorder: (existingMeta, incomingMeta, existing, incoming) =>
      cls.shouldReorder(existingMeta, incomingMeta, existing, incoming),
    versioned: cls.shouldReorder !== info.base.shouldReorder,
  };
  mergePolicies.set(cls, policy);
  return policy;
}

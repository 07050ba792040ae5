/** How an Entity row becomes an instance of its class (docs/Entity.md). */

import { freezeInDevelopment, DEVELOPMENT } from '../base/env.js';
import { defineOwn, hasOwn, isRecord } from '../base/dict.js';
import { INVALID, type DenormalizeDelegate, type RowBuilder } from './contract.js';
import {
  childInfo,
  entityInfo,
  FIELD_ENTITY,
  FIELD_ENTITY_LIST,
  FIELD_SCALAR,
  readsAsEntity,
  type EntityInfo,
  type EntityLike,
  type FieldPlan,
} from './entityInfo.js';
import { isUsablePk } from './pk.js';

export function denormalizeEntity(
  cls: EntityLike,
  info: EntityInfo,
  input: unknown,
  delegate: DenormalizeDelegate,
): unknown {
  if (input === null || input === undefined) return input;
  if (isRecord(input)) return readInline(cls, info, input, delegate);
  // Only pks and inline objects are refs; anything else was stored raw.
  if (typeof input !== 'string' && typeof input !== 'number') return input;
  const rowKey = String(input);
  if (rowKey === '' || rowKey === 'undefined') return undefined;
  return delegate.entity(cls.key, rowKey, (info.builder ??= new InstanceBuilder(cls, info)), cls);
}

/**
 * How a list reads its members: refs to an Entity class that reads as Entity does are read
 * directly (its info found once per list, not once per ref); any other member schema goes
 * through the walker's dispatch. `base` is the Entity class (see entityInfo).
 */
export function memberReader(
  schema: unknown,
  base: EntityLike,
  delegate: DenormalizeDelegate,
): (ref: unknown) => unknown {
  if (!readsAsEntity(schema, base)) return ref => delegate.unvisit(schema, ref);
  const info = entityInfo(schema, base);
  return ref => denormalizeEntity(schema, info, ref, delegate);
}

/** Builds the instances of one class from its rows: one object per class, not a closure per read. */
class InstanceBuilder implements RowBuilder {
  declare private readonly cls: EntityLike;
  declare private readonly info: EntityInfo;

  constructor(cls: EntityLike, info: EntityInfo) {
    this.cls = cls;
    this.info = info;
  }

  buildRow(row: object, key: string, delegate: DenormalizeDelegate, hold: (value: object) => void): unknown {
    return buildInstance(this.cls, this.info, key, row, delegate, hold);
  }
}

/**
 * A nested object where a ref is expected (state hydrated or written by hand, not by a write of
 * this cache): it reads as the entity. The stored row wins when the object's pk names one;
 * otherwise the object itself is the row. It stands one entity level deeper, as a ref would, and
 * past `maxEntityDepth` it is still the entity (the row, else the object), its own nested fields
 * left as stored: an object never turns into a bare pk (docs/Entity.md).
 */
function readInline(cls: EntityLike, info: EntityInfo, input: object, delegate: DenormalizeDelegate): unknown {
  const pk = cls.pk(input, undefined, undefined, delegate.args);
  const rowKey = isUsablePk(pk) ? String(pk) : '';
  const pastLimit = (row: object) => buildInstance(cls, info, rowKey, row, undefined, () => {});
  if (rowKey !== '' && delegate.row(cls.key, rowKey) !== undefined)
    return delegate.entity(
      cls.key,
      rowKey,
      (row, hold) => buildInstance(cls, info, rowKey, row, delegate, hold),
      cls,
      pastLimit,
    );
  // Not held for cycles: an object written inline cannot hold itself in JSON state.
  return delegate.inline(input, row => buildInstance(cls, info, rowKey, row, delegate, () => {}), cls, pastLimit);
}

/**
 * The instance of a row. Without a delegate (past the depth limit) its nested fields stay as
 * stored, unresolved.
 */
function buildInstance(
  cls: EntityLike,
  info: EntityInfo,
  rowKey: string,
  row: object,
  delegate: DenormalizeDelegate | undefined,
  hold: (value: object) => void,
): unknown {
  if (!info.defaultValidate && cls.validate(row)) return INVALID;
  const proto = cls.prototype as object;
  // Field initialisers come from the class's template instance, so constructors are not re-run
  // (and initialisers such as `author = User.fromJS()` do not build objects on every read).
  const instance = Object.assign(Object.create(proto) as Record<string, unknown>, info.defaults);
  const data = row as Record<string, unknown>;
  // A row's own `__proto__` field must become data, never the instance's prototype.
  const assigns = info.assignsRows && !hasOwn(data, '__proto__');
  if (assigns) Object.assign(instance, data);
  else {
    const fields = Object.keys(data);
    for (let i = 0; i < fields.length; i++) defineField(instance, info, proto, fields[i]!, data[fields[i]!]);
  }
  hold(instance);
  // Past the depth limit: the row's nested fields stay as they are stored.
  if (delegate === undefined) return DEVELOPMENT ? Object.freeze(instance) : instance;
  const plans = info.fieldPlans;
  for (let i = 0; i < plans.length; i++) {
    const read = plans[i]!;
    const field = read.field;
    let value: unknown;
    if (read.kind === FIELD_SCALAR) {
      // A Scalar field reads its cell even when the row lacks it, never the initialiser.
      const stored = hasOwn(data, field) ? data[field] : undefined;
      value = (read.schema as ScalarField).denormalizeField(stored, rowKey, field, cls.key, delegate);
    } else {
      if (!hasOwn(data, field)) continue;
      value = readField(read, data[field], delegate, info.base);
      if (value === INVALID) {
        // A truthy initialiser makes the field required; otherwise it just reads as undefined.
        if (info.required.has(field)) return INVALID;
        value = undefined;
      }
    }
    if (assigns && field !== '__proto__') instance[field] = value;
    else defineField(instance, info, proto, field, value);
  }
  return DEVELOPMENT ? Object.freeze(instance) : instance;
}

/**
 * A stored field's value: a nested entity or a list of them read directly (as the read walker's
 * dispatch would, `unvisit` then the class's `denormalize`, without the dispatch), anything else
 * through the delegate.
 */
function readField(read: FieldPlan, stored: unknown, delegate: DenormalizeDelegate, base: EntityLike): unknown {
  if (!read.reads) return delegate.unvisit(read.schema, stored);
  if (read.kind === FIELD_ENTITY) return denormalizeEntity(read.child!, childInfo(read, base), stored, delegate);
  if (read.kind !== FIELD_ENTITY_LIST || !Array.isArray(stored)) return delegate.unvisit(read.schema, stored);
  // As a plain array schema reads (docs/plain-schemas.md): undefined and invalid members drop out.
  // (readList's rule, inlined: with a closure per list, reads measured 1.10x, docs/benchmarks.md.)
  const child = read.child!;
  const info = childInfo(read, base);
  const values: unknown[] = [];
  for (let i = 0; i < stored.length; i++) {
    const value = denormalizeEntity(child, info, stored[i], delegate);
    if (value !== undefined && value !== INVALID) values.push(value);
  }
  return freezeInDevelopment(values);
}

/**
 * Row fields are data: assignment is used where it cannot reach a prototype setter or getter
 * (own initialised fields, names the prototype lacks), property definition elsewhere (docs/architecture.md).
 */
function defineField(
  instance: Record<string, unknown>,
  info: EntityInfo,
  proto: object,
  field: string,
  value: unknown,
): void {
  if (info.defaultKeys.has(field) || (field !== '__proto__' && !(field in proto))) {
    instance[field] = value;
  } else {
    defineOwn(instance, field, value);
  }
}

interface ScalarField {
  denormalizeField(
    stored: unknown,
    rowKey: string,
    field: string,
    entityKey: string,
    delegate: DenormalizeDelegate,
  ): unknown;
}

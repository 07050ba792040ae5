/**
 * The shared rules of schemas whose members may be of several entity types, picked by an
 * attribute (Union, and the polymorphic forms of Values and All): docs/Union.md.
 */

import { describe, setupError } from '../base/errors.js';
import { hasOwn, isObject, isRecord } from '../base/dict.js';
import { DEVELOPMENT, warn, warnOnce } from '../base/env.js';
import type { DenormalizeDelegate, NormalizeDelegate } from './contract.js';

export type SchemaAttribute = string | ((value: any, parent: unknown, key: string | undefined) => string);

/** A polymorphic member ref, as stored: `{ id, schema }`. */
export interface PolymorphicRef {
  id: string;
  schema: string;
}

/**
 * The read warnings each schema gave (development only). Each is given once per schema: a schema
 * made anew (a test, a reload) warns again for what it meets, while re-reads through one schema
 * do not repeat it. At most READ_WARNINGS per schema, then forgotten and given again
 * (docs/architecture.md, "Who owns what").
 */
const readWarnings = new WeakMap<Polymorphic, Set<string>>();
const READ_WARNINGS = 100;

function warnRead(schema: Polymorphic, message: string): void {
  let given = readWarnings.get(schema);
  if (!given) readWarnings.set(schema, (given = new Set()));
  if (given.has(message)) return;
  if (given.size >= READ_WARNINGS) given.clear();
  given.add(message);
  warn(message);
}

export class Polymorphic {
  /** The single member schema, when there is no attribute. */
  declare readonly single: unknown;
  declare readonly members: Readonly<Record<string, unknown>> | undefined;
  declare readonly attribute: SchemaAttribute | undefined;

  constructor(definition: unknown, attribute: SchemaAttribute | undefined, owner: string) {
    if (attribute === undefined) {
      this.single = definition;
      this.members = undefined;
      this.attribute = undefined;
      return;
    }
    if (!isRecord(definition)) {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `${owner} with an attribute expected a map of member schemas, but received ${describe(definition)}.`,
          `Write new ${owner}({ users: User, groups: Group }, 'type').`,
        ],
      );
    }
    if (typeof attribute !== 'string' && typeof attribute !== 'function') {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `${owner}'s attribute must be a field name or a function, but received ${describe(attribute)}.`,
          "Pass the name of the field that says each item's type, e.g. 'type'.",
        ],
      );
    }
    this.single = undefined;
    this.members = definition as Record<string, unknown>;
    this.attribute = attribute;
  }

  get isSingle(): boolean {
    return this.members === undefined;
  }

  /** The member name the attribute gives for a value (not necessarily a known member). */
  attributeOf(value: unknown, parent: unknown, key: string | undefined): unknown {
    const attribute = this.attribute;
    if (typeof attribute === 'function') return attribute(value, parent, key);
    return isObject(value) ? (value as Record<string, unknown>)[attribute as string] : undefined;
  }

  memberSchema(name: unknown): unknown {
    if (typeof name !== 'string' || !this.members) return undefined;
    return hasOwn(this.members, name) ? this.members[name] : undefined;
  }

  /** Member input → ref; a polymorphic member becomes `{ id, schema }`, an unknown one stays raw (docs/Union.md). */
  normalizeValue(value: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    if (this.isSingle) return delegate.visit(this.single, value, parent, key);
    if (value === null || value === undefined) return value;
    const name = this.attributeOf(value, parent, key);
    const member = this.memberSchema(name);
    if (member === undefined) {
      if (process.env.NODE_ENV !== 'production')
        warnOnce(
          `No schema for the polymorphic type ${describe(name)} (known: ${Object.keys(this.members!).join(', ')}); ` +
            'the item is kept as raw data and not stored as an entity.',
        );
      return value;
    }
    const id = delegate.visit(member, value, parent, key);
    return { id, schema: name as string };
  }

  /** Ref → member value. A raw member (no `schema` key) has its type inferred from the attribute. */
  denormalizeValue(ref: unknown, delegate: DenormalizeDelegate): unknown {
    if (this.isSingle) return delegate.unvisit(this.single, ref);
    if (!isObject(ref)) {
      // A bare pk cannot say which member table it is in (data written before the field was
      // polymorphic, or state written by hand): it is returned as is, and said so in development.
      if (process.env.NODE_ENV !== 'production' && (typeof ref === 'string' || typeof ref === 'number')) {
        warnRead(
          this,
          `A polymorphic read met the bare pk ${describe(ref)} where a ref { id, schema } is needed; it is returned as is. ` +
            'Store polymorphic members through their Union (or Values/All with an attribute) so the ref names the type.',
        );
      }
      return ref;
    }
    if (hasOwn(ref, 'schema')) {
      const { id, schema } = ref as PolymorphicRef;
      const member = this.memberSchema(schema);
      return member === undefined ? ref : delegate.unvisit(member, id);
    }
    // The constant first, so Node does not read process.env per raw member read (docs/production.md).
    if (DEVELOPMENT && process.env.NODE_ENV !== 'production') {
      // Development only: the attribute may be user code, and this runs for every raw member read.
      const name = this.attributeOf(ref, undefined, undefined);
      if (this.memberSchema(name) === undefined)
        warnRead(this, `A polymorphic item of unknown type ${describe(name)} is returned as raw data.`);
    }
    return ref;
  }
}

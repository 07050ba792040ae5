/** The schema of `resource().delete` (docs/resource.md, "Deletes"). */

import { isRecord } from '../base/dict.js';
import { DEVELOPMENT } from '../base/env.js';
import type { DenormalizeDelegate, NormalizeDelegate } from '../schema/contract.js';
import type { EntityClass } from '../schema/Entity.js';
import { Invalidate } from '../schema/Invalidate.js';
import type { Union } from '../schema/Union.js';

/**
 * Deletes as `new Invalidate(schema)` does, and reads back as the item the answer named, as data-client's
 * `delete` resolves: an instance of the class built from the answer (the params when the server
 * sent no body), not looked up in the cache, where the item is now a tombstone that reads as
 * nothing. Over a Union the class is the member the answer's attribute names; an answer of a type
 * the Union does not know reads as itself. An answer that is a bare pk reads as Invalidate's does.
 */
export class Deletion<E extends EntityClass | Union> extends Invalidate<E> {
  /** @internal The tombstone is written; the stored result is the answer itself (made JSON by the write). */
  override normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    const ref = super.normalize(input, parent, key, delegate);
    return isRecord(input) ? input : ref;
  }

  /** @internal */
  override denormalize(input: unknown, delegate: DenormalizeDelegate): unknown {
    if (!isRecord(input)) return super.denormalize(input, delegate);
    const cls = this.entityOf(input, undefined, undefined);
    if (!cls) return input;
    const item = cls.fromJS(input);
    return DEVELOPMENT ? Object.freeze(item) : item;
  }
}

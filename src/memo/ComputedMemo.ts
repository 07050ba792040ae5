/**
 * The memo of computed results (Query's `process`, docs/Query.md "Memoization"): per owner (held weakly) and per
 * args equal by value (a bounded LRU), the last input and the output computed from it.
 *
 * The output is reused when the input is the same object, or a plain container holding the very
 * same members: a join object rebuilt after an unrelated row changed, or an `All` list re-read
 * after another table's write, does not run `process` again. An output that holds the same members
 * as the owner's last one read (a count per category read at another currency) is that one.
 */

import { Lru } from '../base/Lru.js';
import { reuse, sameContainer } from './reuse.js';

interface Computed {
  readonly input: unknown;
  readonly output: unknown;
}

export class ComputedMemo {
  private readonly byOwner = new WeakMap<object, Lru<string, Computed>>();

  constructor(private readonly argsCacheSize: number) {}

  /** `argsKey` is the stable key of the read's args (`argsKey(args)` of base/json). */
  get(owner: object, argsKey: string, input: unknown, compute: () => unknown): unknown {
    let slot = this.byOwner.get(owner);
    if (!slot) this.byOwner.set(owner, (slot = new Lru(this.argsCacheSize)));
    const previous = slot.get(argsKey);
    if (previous && (previous.input === input || sameContainer(previous.input, input))) return previous.output;
    // After a hit, the newest entry is `previous`; after a miss, the one read last at other args.
    const output = reuse(slot.newest?.value.output, compute());
    slot.set(argsKey, { input, output });
    return output;
  }
}

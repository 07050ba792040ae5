/**
 * Which store's read memo serves a slice (docs/architecture.md, "Who owns what"). Each store
 * mounting a cache gets a memo of its own, held by its runtime, so a reset or a sweep in one store
 * (server rendering keeps one store per request) never touches the memo another store reads
 * through. A read is given a root state, not a store: the cache's middleware notes the slice its
 * store holds when it is mounted and after every action, the reducer passes the owner on from each
 * slice to the next as it writes, and a slice no store noted (state built by hand, read without
 * the middleware) is read through a memo the cache keeps for such reads.
 */

import type { ErrorRecord } from '../../base/errors.js';
import type { CacheState } from '../../base/state.js';
import { Reader } from '../../memo/Reader.js';
import type { SliceFacts } from '../slice/reducer.js';
import { Selectors } from './selectors.js';

export interface MemoOptions {
  argsCacheSize: number;
  lensCacheSize: number;
  maxEntityDepth: number;
}

export class MemoOwners {
  /** Original errors by their stored record: one map for every store (records are never shared between stores' writes). */
  private readonly errors = new WeakMap<ErrorRecord, Error>();
  /** For slices no store noted. */
  declare readonly shared: Selectors;
  declare private readonly options: MemoOptions;
  declare private readonly facts: SliceFacts;
  /** `facts` keep each slice's memo owner and its count of unsure rows (slice/reducer.ts, SliceFacts). */
  constructor(options: MemoOptions, facts: SliceFacts) {
    this.options = options;
    this.facts = facts;
    this.shared = this.make();
  }

  /** A new memo, for a store. */
  make(): Selectors {
    const { argsCacheSize, lensCacheSize, maxEntityDepth } = this.options;
    return new Selectors(
      new Reader({ argsCacheSize, lensCacheSize, maxEntityDepth }),
      argsCacheSize,
      maxEntityDepth,
      this.errors,
      slice => this.facts.unsure(slice) > 0,
    );
  }

  /** The memo that reads `slice`. */
  of(slice: CacheState): Selectors {
    return (this.facts.owner(slice) as Selectors | undefined) ?? this.shared;
  }
}

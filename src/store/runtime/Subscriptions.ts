/**
 * Who reads what, per store: a count of holders for each request key (a mounted useSuspense,
 * useFetch or useCache) and each Query read (a mounted useQuery, by schema and args), with what
 * was read (the endpoint or schema, and the args) for whoever must act on it: garbage
 * collection, polling and refetch-on-focus decide from this what is still wanted. An entry exists
 * only while held: the last release deletes it, so the registry is bounded by what is mounted.
 */

/**
 * `'request'`: a mounted reader of an endpoint (or a subscription, which holds its key too);
 * `'query'`: a mounted useQuery; `'subscription'`: a live subscriber (useSubscription, useLive,
 * `cache.subscribe`), whose polling the store's Pollers run.
 */
export type HeldKind = 'request' | 'query' | 'subscription';

/** What a holder reads: the endpoint (requests) or schema (queries), and the args. */
export interface HeldRead {
  readonly target: unknown;
  readonly args: readonly unknown[];
}

/** Told that `key` gained its first holder (`held`) or lost its last, with what it reads. */
export type HeldListener = (kind: HeldKind, key: string, held: boolean, read: HeldRead) => void;

interface Entry {
  count: number;
  read: HeldRead;
}

export class Subscriptions {
  private readonly entries = new Map<string, Entry>();
  /** Schemas (and endpoints) numbered for query keys, held weakly. */
  private readonly ids = new WeakMap<object, number>();
  private last = 0;
  /** Told when a key gains its first holder (`true`) or loses its last (`false`): garbage collection. */
  private readonly listeners = new Set<HeldListener>();

  /** Holds `key` until the returned `release` is called (a second call does nothing). */
  retain(kind: HeldKind, key: string, read: HeldRead): () => void {
    const id = `${kind}:${key}`;
    const entry = this.entries.get(id);
    if (entry) entry.count++;
    else {
      this.entries.set(id, { count: 1, read });
      for (const listener of this.listeners) listener(kind, key, true, read);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const held = this.entries.get(id);
      if (held && --held.count <= 0) {
        this.entries.delete(id);
        for (const listener of this.listeners) listener(kind, key, false, held.read);
      }
    };
  }

  /** Calls `listener` whenever a key gains its first holder or loses its last; returns the removal. */
  listen(listener: HeldListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** How many holders `key` has now. */
  count(kind: HeldKind, key: string): number {
    return this.entries.get(`${kind}:${key}`)?.count ?? 0;
  }

  /** What the holders of `key` read, while it is held. */
  read(kind: HeldKind, key: string): HeldRead | undefined {
    return this.entries.get(`${kind}:${key}`)?.read;
  }

  /** The keys of `kind` held now, with what they read. */
  held(kind: HeldKind): Array<[key: string, read: HeldRead]> {
    const prefix = `${kind}:`;
    const found: Array<[string, HeldRead]> = [];
    for (const [id, entry] of this.entries)
      if (id.startsWith(prefix)) found.push([id.slice(prefix.length), entry.read]);
    return found;
  }

  /** The key of a Query read: the schema's number in this registry, and the args' memo key. */
  queryKey(schema: object, memoKey: string): string {
    let id = this.ids.get(schema);
    if (id === undefined) this.ids.set(schema, (id = ++this.last));
    return `${id}|${memoKey}`;
  }
}

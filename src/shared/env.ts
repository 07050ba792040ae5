/** Development checks and warnings; all of them vanish when NODE_ENV is 'production'. */

declare const process: { env: { NODE_ENV?: string } } | undefined;

// Read once: `process.env` is slow to read in Node, and bundlers replace this expression anyway.
const DEVELOPMENT = typeof process === 'undefined' || process.env.NODE_ENV !== 'production';

export function isDevelopment(): boolean {
  return DEVELOPMENT;
}

/** Messages already printed; at most WARNED_LIMIT, the oldest forgotten first (then printed again). */
const warned = new Set<string>();
const WARNED_LIMIT = 1_000;

/** Logs a development warning once per distinct message. */
export function warnOnce(message: string): void {
  if (!isDevelopment() || warned.has(message)) return;
  if (warned.size >= WARNED_LIMIT) warned.delete(warned.values().next().value as string);
  warned.add(message);
  console.warn(`[lenscache] ${message}`);
}

/** Freezes what reads return, outside production, so a mutation fails loudly instead of corrupting memoized data. */
export function freezeInDevelopment<T extends object>(value: T): T {
  return isDevelopment() ? Object.freeze(value) : value;
}

/** Logs a development warning every time (for events, not for messages that repeat per read). */
export function warn(message: string): void {
  if (isDevelopment()) console.warn(`[lenscache] ${message}`);
}

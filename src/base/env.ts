/** Development checks and warnings; all of them vanish when NODE_ENV is 'production'. */

/**
 * Read once, for hot paths: `process.env` is slow to read in Node. A bundler replaces
 * `process.env.NODE_ENV` with a string, so in a production bundle this is `false`. Code that
 * should vanish from production bundles (messages, warnings) does not rely on this constant
 * being inlined: it tests `process.env.NODE_ENV !== 'production'` literally where it stands,
 * the form every bundler folds (docs/production.md).
 */
export const DEVELOPMENT = process.env.NODE_ENV !== 'production';

/** `DEVELOPMENT`, for callers that load this module at run time (tests). Bundlers inline the constant, not this call. */
export function isDevelopment(): boolean {
  return DEVELOPMENT;
}

/** Messages already printed; at most WARNED_LIMIT, the oldest forgotten first (then printed again). */
const warned = new Set<string>();
const WARNED_LIMIT = 1_000;

/** Logs a development warning once per distinct message. */
export function warnOnce(message: string): void {
  if (!DEVELOPMENT || warned.has(message)) return;
  if (warned.size >= WARNED_LIMIT) warned.delete(warned.values().next().value as string);
  warned.add(message);
  console.warn(`[lenscache] ${message}`);
}

/** Freezes what reads return, outside production, so a mutation fails loudly instead of corrupting memoized data. */
export function freezeInDevelopment<T extends object>(value: T): T {
  return DEVELOPMENT ? Object.freeze(value) : value;
}

/** Logs a development warning every time (for events, not for messages that repeat per read). */
export function warn(message: string): void {
  if (DEVELOPMENT) console.warn(`[lenscache] ${message}`);
}

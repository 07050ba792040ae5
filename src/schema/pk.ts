/** The pk rules every construct shares (docs/Entity.md). */

/** A usable pk is a finite number, or a string other than `''` and `'undefined'`. */
export function isUsablePk(pk: unknown): pk is string | number {
  if (typeof pk === 'number') return Number.isFinite(pk);
  return typeof pk === 'string' && pk !== '' && pk !== 'undefined';
}

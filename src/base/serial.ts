/**
 * Process-wide serial numbers, for names that must not repeat within one page load (placeholder
 * pks of pushed items). One number, wrapping before it loses precision: bounded by construction.
 */
let last = 0;

/** The next serial number: 1, 2, 3, … (back to 1 after Number.MAX_SAFE_INTEGER). */
export function nextSerial(): number {
  // Not `last % MAX + 1`: V8 keeps a modulo's result as a boxed double, 16 bytes in every memo
  // entry holding the serial; a comparison keeps it a small integer.
  last = last >= Number.MAX_SAFE_INTEGER ? 1 : last + 1;
  return last;
}

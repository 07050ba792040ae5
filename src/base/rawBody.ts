/** The bodies a RestEndpoint sends as they are (docs/RestEndpoint.md, "Bodies"); keys take them as JSON writes them. */

import { isObject } from './dict.js';

/**
 * The kinds of body `fetch` sends as they are, with the content type it gives them (a form's
 * multipart boundary, a file's type, `application/x-www-form-urlencoded`), as data-client sends
 * them. Told by their tag rather than `instanceof`, so a body made in another realm (a jsdom
 * window, an iframe) is recognized too.
 */
const RAW_BODIES = new Set([
  '[object FormData]',
  '[object Blob]',
  '[object File]',
  '[object URLSearchParams]',
  '[object ArrayBuffer]',
]);

/** A body `fetch` sends untouched: FormData, a Blob or File, URLSearchParams, an ArrayBuffer or a view of one. */
export function isRawBody(body: unknown): boolean {
  if (!isObject(body)) return false;
  return RAW_BODIES.has(Object.prototype.toString.call(body)) || ArrayBuffer.isView(body);
}

/**
 * Reading a response body: as the endpoint's `content` says, else JSON when it says so or looks
 * like it, else text; a broken JSON body is a NetworkError with the code INVALID_RESPONSE and status 400.
 */

import { isDownload } from '../base/endpointOptions.js';
import { NetworkError } from './NetworkError.js';

/** A 2xx body as `content` reads it: a download as a Blob, bytes or the stream itself (read once, by the caller). */
export async function readBody(response: Response, content: unknown, method: string): Promise<unknown> {
  if (content === 'stream') return response.body;
  if (isDownload(content)) return response[content as 'blob']();
  return parseBody(await response.text(), response, method, response.url, content);
}

/** Error bodies are shown parsed when they are JSON, else as text. */
export function parseLoosely(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A 2xx body: parsed when it claims JSON (or looks like it), else its text; `null` when empty.
 * `content: 'json'` always parses it, `'text'` never does.
 */
function parseBody(text: string, response: Response, method: string, url: string, content?: unknown): unknown {
  if (content === 'text') return text;
  if (text === '') return null;
  const type = response.headers.get('content-type') ?? '';
  const trimmed = text.trimStart();
  if (content !== 'json' && !type.includes('json') && !trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new NetworkError(method, url, response, text, error as Error);
  }
}

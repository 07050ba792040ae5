/** Reading a response body: JSON when it says so or looks like it, else text; a broken JSON body is a NetworkError with the code INVALID_RESPONSE and status 400. */

import { NetworkError } from './NetworkError.js';

/** Error bodies are shown parsed when they are JSON, else as text. */
export function parseLoosely(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A 2xx body: parsed when it claims JSON (or looks like it), else its text; `null` when empty. */
export function parseBody(text: string, response: Response, method: string, url: string): unknown {
  if (text === '') return null;
  const type = response.headers.get('content-type') ?? '';
  const trimmed = text.trimStart();
  if (!type.includes('json') && !trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new NetworkError(method, url, response, text, error as Error);
  }
}

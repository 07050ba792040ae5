/** Reading a response body: JSON when it says so or looks like it, else text; a broken JSON body is INVALID_RESPONSE. */

import { describe, docsLink, ErrorCode, LensCacheError } from '../shared/errors.js';

/** Error bodies are shown parsed when they are JSON, else as text. */
export function parseLoosely(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function parseBody(text: string, response: Response, method: string, url: string): unknown {
  if (text === '') return null;
  const type = response.headers.get('content-type') ?? '';
  const trimmed = text.trimStart();
  if (!type.includes('json') && !trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LensCacheError(
      ErrorCode.INVALID_RESPONSE,
      `${method} ${url} answered ${response.status} with a body that is not valid JSON (${(error as Error).message}): ${describe(text)}.\n` +
        'The server must send complete JSON; check it for truncated or mixed output.\n' +
        docsLink(ErrorCode.INVALID_RESPONSE),
    );
  }
}

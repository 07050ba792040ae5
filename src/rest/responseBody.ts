/** Reading a response body: JSON when it says so or looks like it, else text; a broken JSON body is INVALID_RESPONSE. */

import { describe, ErrorCode, errorMessage, LensCacheError } from '../base/errors.js';

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
    const code = ErrorCode.INVALID_RESPONSE;
    throw new LensCacheError(
      code,
      errorMessage(
        code,
        process.env.NODE_ENV !== 'production' && [
          `${method} ${url} answered ${response.status} with a body that is not valid JSON (${(error as Error).message}): ${describe(text)}.`,
          'The server must send complete JSON; check it for truncated or mixed output.',
        ],
        `${method} ${url} ${response.status}`,
      ),
    );
  }
}

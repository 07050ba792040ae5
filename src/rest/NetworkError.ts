/**
 * The error of a request the server answered with a non-2xx status, or with a 2xx status and a
 * body that claims JSON but does not parse (docs/errors.md#network_error, #invalid_response).
 */

import { isObject } from '../base/dict.js';
import { describe, errorMessage, LensCacheError } from '../base/errors.js';

/**
 * Rejects `endpoint.fetch` (and `cache.fetch`) when the response status is not 2xx. `status` is the
 * HTTP status, `response` the `Response` (its body already read), `body` the body parsed as JSON
 * when it was JSON, else its text. Stored in state as `{ name, message, status, code }`.
 *
 * A 2xx answer whose body claims JSON but does not parse is one too, with the code
 * `INVALID_RESPONSE` and `status` 400 (the answer, not the request, is malformed; as data-client
 * gives it), and `body` the text received.
 */
export class NetworkError extends LensCacheError {
  declare readonly response: Response;
  declare readonly body: unknown;

  /** `unparsed`: the JSON parse error of a 2xx body (the error is then INVALID_RESPONSE, status 400). */
  constructor(method: string, url: string, response: Response, body: unknown, unparsed?: Error) {
    super(
      unparsed ? 'INVALID_RESPONSE' : 'NETWORK_ERROR',
      networkMessage(method, url, response, body, unparsed),
      unparsed ? 400 : response.status,
    );
    this.name = 'NetworkError';
    this.response = response;
    this.body = body;
  }
}

/** The message of a refusal (a status that is not 2xx) or, with `unparsed`, of a 2xx body that is not JSON. */
function networkMessage(method: string, url: string, response: Response, body: unknown, unparsed?: Error): string {
  const { status, statusText } = response;
  const answer = unparsed || !statusText ? `${status}` : `${status} ${statusText}`;
  return errorMessage(
    unparsed ? 'INVALID_RESPONSE' : 'NETWORK_ERROR',
    process.env.NODE_ENV !== 'production' &&
      (unparsed
        ? [
            `${method} ${url} answered ${status} with a body that is not valid JSON (${unparsed.message}): ${describe(body)}.`,
            'The server must send complete JSON; check it for truncated or mixed output.',
          ]
        : [
            `${method} ${url} answered ${answer}; a 2xx status was expected.${shown(body)}`,
            'Check the URL and args the endpoint was called with, and the server log for this request.',
          ]),
    `${method} ${url} ${answer}`,
  );
}

/**
 * Whether `error` is a NetworkError, and, given a check of its body, whether its body is of that
 * type: the typed way to the body a server sent with a refusal (docs/errors.md#network_error).
 * `body` is `unknown` on the class because the server decides what it sends; the check is what
 * makes the type true.
 *
 * @example
 * ```ts
 * const isRefusal = (body: unknown): body is { message: string } =>
 *   typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string';
 * if (isNetworkError(error, isRefusal) && error.status === 422) show(error.body.message);
 * ```
 */
export function isNetworkError(error: unknown): error is NetworkError;
export function isNetworkError<B>(
  error: unknown,
  isBody: (body: unknown) => body is B,
): error is NetworkError & { readonly body: B };
export function isNetworkError(error: unknown, isBody?: (body: unknown) => boolean): boolean {
  return error instanceof NetworkError && (isBody === undefined || isBody(error.body));
}

/** What the body adds to a development message: the server's own `message`, else a preview. */
function shown(body: unknown): string {
  // A JSON body's `message` is what the server says went wrong: quoted in full (bounded).
  const said = serverMessage(body);
  return said !== undefined
    ? ` The server said: ${JSON.stringify(said)}.`
    : body === '' || body === undefined
      ? ''
      : ` Body: ${describe(body)}.`;
}

/** The `message` string of a JSON error body (`{ "message": "A title is required." }`), bounded. */
function serverMessage(body: unknown): string | undefined {
  const message = isObject(body) ? (body as { message?: unknown }).message : undefined;
  if (typeof message !== 'string' || message.trim() === '') return undefined;
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

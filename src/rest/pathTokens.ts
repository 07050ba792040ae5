/**
 * The path template language (path-to-regexp 8's syntax, the subset a URL builder needs): text,
 * `:name` params (or `:"quoted name"`), `*name` wildcards, `{...}` optional groups (nested), and
 * `\` escapes. Characters path-to-regexp reserves (`()[]?+!`) are refused, so a template means
 * the same here as there.
 */

import type { DevText } from '../base/errors.js';

export type Token =
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'param' | 'wildcard'; readonly name: string }
  | { readonly type: 'group'; readonly tokens: readonly Token[] };

const RESERVED = '()[]?+!';
const NAME_START = /[$_\p{ID_Start}]/u;
const NAME_PART = /[$\u200c\u200d\p{ID_Continue}]/u;

/** The tokens of `path`; a template that does not parse is passed to `refuse`, saying where. */
export function parseTemplate(path: string, refuse: (reason: string) => never): Token[] {
  const chars = [...path];
  let i = 0;
  // Production builds keep no reason: the error says the path, and its code links the syntax.
  const fail = (what: DevText): never => refuse(process.env.NODE_ENV !== 'production' ? `${what} at index ${i}` : '');
  const name = (): string => {
    if (chars[i] === '"') {
      let quoted = '';
      for (i++; i < chars.length && chars[i] !== '"'; i++) quoted += chars[i] === '\\' ? chars[++i] : chars[i];
      if (chars[i] !== '"' || quoted === '')
        fail(process.env.NODE_ENV !== 'production' && 'Unterminated or empty quoted name');
      i++;
      return quoted;
    }
    let value = '';
    if (i < chars.length && NAME_START.test(chars[i]!)) {
      value = chars[i++]!;
      while (i < chars.length && NAME_PART.test(chars[i]!)) value += chars[i++];
    }
    return value || fail(process.env.NODE_ENV !== 'production' && 'Missing parameter name');
  };
  const tokens = (inGroup: boolean): Token[] => {
    const out: Token[] = [];
    let text = '';
    const flush = (): void => {
      if (text) out.push({ type: 'text', value: text });
      text = '';
    };
    while (i < chars.length) {
      const char = chars[i]!;
      if (char === '\\') {
        if (i + 1 >= chars.length) fail(process.env.NODE_ENV !== 'production' && 'Nothing to escape');
        text += chars[i + 1];
        i += 2;
      } else if (char === ':' || char === '*') {
        flush();
        i++;
        out.push({ type: char === ':' ? 'param' : 'wildcard', name: name() });
      } else if (char === '{') {
        flush();
        i++;
        out.push({ type: 'group', tokens: tokens(true) });
      } else if (char === '}') {
        if (!inGroup) fail(process.env.NODE_ENV !== 'production' && 'Unexpected }');
        flush();
        i++;
        return out;
      } else if (RESERVED.includes(char)) {
        fail(process.env.NODE_ENV !== 'production' && `Unexpected ${char}`);
      } else {
        text += char;
        i++;
      }
    }
    if (inGroup) fail(process.env.NODE_ENV !== 'production' && 'Missing }');
    flush();
    return out;
  };
  return tokens(false);
}

/**
 * The function that fills `tokens` from values (strings, or lists of strings for wildcards), each
 * encoded with encodeURIComponent. An optional group with a param missing is left out; the
 * required params missing are listed in `missing` (the path is then unusable).
 */
export function compileTokens(
  tokens: readonly Token[],
): (values: Readonly<Record<string, unknown>>) => { path: string; missing: string[] } {
  const fill = (list: readonly Token[], values: Readonly<Record<string, unknown>>, missing: string[]): string => {
    let out = '';
    for (const token of list) {
      if (token.type === 'text') {
        out += token.value;
      } else if (token.type === 'group') {
        const inner: string[] = [];
        const filled = fill(token.tokens, values, inner);
        if (inner.length === 0) out += filled;
      } else {
        const value = values[token.name];
        if (value === undefined || (token.type === 'wildcard' && (!Array.isArray(value) || value.length === 0))) {
          missing.push(token.name);
        } else if (token.type === 'wildcard') {
          out += (value as unknown[]).map(segment => encodeURIComponent(String(segment))).join('/');
        } else {
          out += encodeURIComponent(String(value));
        }
      }
    }
    return out;
  };
  return values => {
    const missing: string[] = [];
    return { path: fill(tokens, values, missing), missing };
  };
}

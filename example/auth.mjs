// The example server's sessions: a login hands out a short-lived access token and a refresh
// token; a refresh exchanges a refresh token (once) for a new pair. Tokens live in memory.
//
//   POST /api/auth/login     { name, password } → { token, refreshToken, user } or 401
//   POST /api/auth/refresh   { refreshToken }    → { token, refreshToken, user } or 401
//
// Every other API route wants `authorization: Bearer <token>` (server.mjs answers 401 without a
// valid one). The test-only switches (testRoutes) end tokens on demand:
//
//   POST /api/_test/expire-tokens   every access token expires; refresh tokens still work
//   POST /api/_test/end-sessions    access and refresh tokens all end: a refresh is refused
import { randomBytes } from 'node:crypto';

/** The one password of the example's users (shown on the login screen). */
export const PASSWORD = 'lenscache';
/** How long an access token lasts: short, and longer than the e2e run, so only a test ends one early. */
const TOKEN_TTL_MS = 15 * 60_000;

export function createAuth(users, { ttl = TOKEN_TTL_MS } = {}) {
  /** access token → { user, expiresAt } */
  const tokens = new Map();
  /** refresh token → user */
  const refreshTokens = new Map();
  const newToken = prefix => `${prefix}-${randomBytes(12).toString('hex')}`;

  const issue = user => {
    const token = newToken('t');
    const refreshToken = newToken('r');
    tokens.set(token, { user, expiresAt: Date.now() + ttl });
    refreshTokens.set(refreshToken, user);
    return { token, refreshToken, user: { id: user.id, name: user.name } };
  };

  return {
    login(body) {
      const name = typeof body?.name === 'string' ? body.name.trim().toLowerCase() : '';
      const user = users.find(u => u.name.toLowerCase() === name);
      if (!user || body?.password !== PASSWORD) return [401, { message: 'Wrong name or password.' }];
      return [200, issue(user)];
    },
    refresh(body) {
      const user = refreshTokens.get(body?.refreshToken);
      if (!user) return [401, { message: 'Your session has ended: log in again.' }];
      // A refresh token is good for one exchange.
      refreshTokens.delete(body.refreshToken);
      return [200, issue(user)];
    },
    /** What the request's `authorization` header holds: a valid token, one that is not (any more), or none. */
    check(header) {
      const token = /^Bearer (.+)$/.exec(header ?? '')?.[1];
      if (!token) return 'none';
      const entry = tokens.get(token);
      return entry && entry.expiresAt > Date.now() ? 'valid' : 'invalid';
    },
    /** Test-only: every access token expires now. */
    expireTokens() {
      const n = tokens.size;
      tokens.clear();
      return n;
    },
    /** Test-only: every access and refresh token ends now. */
    endSessions() {
      const n = refreshTokens.size;
      tokens.clear();
      refreshTokens.clear();
      return n;
    },
  };
}

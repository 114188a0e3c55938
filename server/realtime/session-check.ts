import type { MaybeAsync } from '../lib/maybe-async';

/**
 * Is a socket's login still valid? Handed to createRealtime() by the app (features/accounts/session-check.ts
 * implements it on the sessions repository).
 *
 * Synchronous on SQLite (better-sqlite3, like the session store itself): a `session:ended` event re-checks a
 * user's sockets in the same tick as the logout, so no user event can slip through in between. On PostgreSQL
 * no query can answer synchronously: the check returns a promise and a socket is demoted when it settles; the
 * events that follow a logout or a block are ordered after the write that ended the session, so the window is
 * the one round trip of the check.
 */
export interface SessionCheck {
  /** At the handshake: the session was just loaded; only the user's state (exists, not blocked) needs checking. */
  userActive(userId: number): MaybeAsync<boolean>;
  /** The session row exists, is not expired, still belongs to `userId`, and that user is active. */
  sessionValid(sessionId: string | null, userId: number): MaybeAsync<boolean>;
}

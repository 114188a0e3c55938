import type { MaybeAsync } from '../../lib/maybe-async';
import type { SessionsRepository } from './sessions.repository';

/**
 * The socket session check (realtime/session-check.ts says why it must answer synchronously on SQLite): the
 * sessions repository's prepared statements, not an awaited kysely query.
 */
export function createSessionCheck(sessions: SessionsRepository) {
  return {
    userActive(userId: number): MaybeAsync<boolean> {
      return sessions.isUserActive(userId);
    },
    sessionValid(sessionId: string | null, userId: number): MaybeAsync<boolean> {
      if (!sessionId) return false;
      return sessions.isSessionActive(sessionId, Date.now(), userId);
    },
  };
}

/**
 * Logged-in sockets whose session ended (logout, expiry, password change) or whose user was blocked become
 * anonymous watchers: out of their user room, auction rooms kept.
 */
import type { Logger } from 'pino';
import { userRoom, type SessionEndedEvent } from '@shared/socket-events';
import type { Io, IoSocket } from './io';
import type { SessionCheck } from './session-check';

export interface SessionRechecks {
  /** Re-checks the sockets in `user:{userId}`; returns how many were demoted. */
  user(userId: number): number;
  /** Re-checks every logged-in socket; returns how many were demoted. */
  all(): number;
}

export function sessionRechecks(io: Io, check: SessionCheck, logger: Logger): SessionRechecks {
  return {
    user: (userId) => recheckUser(io, check, logger, userId),
    all: () => recheckAll(io, check, logger),
  };
}

/**
 * Turns a socket into an anonymous watcher. It is told first (`session:ended`), so the page can forget the
 * user and send them to /login instead of going on as if logged in.
 */
function demote(socket: IoSocket, check: SessionCheck, logger: Logger): void {
  const uid = socket.data.userId;
  if (!uid) return;
  let reason: SessionEndedEvent['reason'] = 'ended';
  try {
    if (!check.userActive(uid)) reason = 'blocked';
  } catch (err) {
    logger.error({ err }, 'socket user check failed');
  }
  socket.emit('session:ended', { reason });
  socket.data.userId = null;
  void socket.leave(userRoom(uid));
}

function recheckUser(io: Io, check: SessionCheck, logger: Logger, userId: number): number {
  let demoted = 0;
  const ids = io.of('/').adapter.rooms.get(userRoom(userId));
  for (const id of [...(ids ?? [])]) {
    const socket = io.of('/').sockets.get(id);
    if (!socket) continue;
    if (socket.data.userId !== userId || !check.sessionValid(socket.data.sessionId, userId)) {
      demote(socket, check, logger);
      demoted += 1;
    }
  }
  return demoted;
}

function recheckAll(io: Io, check: SessionCheck, logger: Logger): number {
  let demoted = 0;
  for (const socket of io.of('/').sockets.values()) {
    const uid = socket.data.userId;
    if (uid && !check.sessionValid(socket.data.sessionId, uid)) {
      demote(socket, check, logger);
      demoted += 1;
    }
  }
  return demoted;
}

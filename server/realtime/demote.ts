/**
 * Logged-in sockets whose session ended (logout, expiry, password change) or whose user was blocked become
 * anonymous watchers: out of their user room, auction rooms kept.
 */
import type { Logger } from 'pino';
import { userRoom, type SessionEndedEvent } from '@shared/socket-events';
import type { Io, IoSocket } from './io';
import type { SessionCheck } from './session-check';
import { andThen, type MaybeAsync } from '../lib/maybe-async';

export interface SessionRechecks {
  /** Re-checks the sockets in `user:{userId}`; returns how many were demoted. */
  user(userId: number): MaybeAsync<number>;
  /** Re-checks every logged-in socket; returns how many were demoted. */
  all(): MaybeAsync<number>;
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
function demote(socket: IoSocket, check: SessionCheck, logger: Logger): MaybeAsync<void> {
  const uid = socket.data.userId;
  if (!uid) return;
  const end = (reason: SessionEndedEvent['reason']) => {
    socket.emit('session:ended', { reason });
    socket.data.userId = null;
    void socket.leave(userRoom(uid));
  };
  const failed = (err: unknown) => {
    logger.error({ err }, 'socket user check failed');
    return 'ended' as const;
  };
  let active: MaybeAsync<boolean>;
  try {
    active = check.userActive(uid);
  } catch (err) {
    return end(failed(err));
  }
  if (active instanceof Promise) return active.then((ok) => end(ok ? 'ended' : 'blocked'), (err: unknown) => end(failed(err)));
  end(active ? 'ended' : 'blocked');
}

/** Demotes `socket` when `valid` (now or later) says its session is over; 1 if it was demoted, else 0. */
function demoteUnless(socket: IoSocket, valid: MaybeAsync<boolean>, check: SessionCheck, logger: Logger): MaybeAsync<number> {
  return andThen(valid, (ok) => {
    // On PostgreSQL the answer comes later: the socket may have been demoted or left meanwhile.
    if (ok || !socket.data.userId) return 0;
    return andThen(demote(socket, check, logger), () => 1);
  });
}

/** The sum of per-socket results, synchronous when every one was. */
function total(results: MaybeAsync<number>[]): MaybeAsync<number> {
  if (results.every((r) => typeof r === 'number')) return (results as number[]).reduce((a, b) => a + b, 0);
  return Promise.all(results).then((rs) => rs.reduce((a, b) => a + b, 0));
}

function recheckUser(io: Io, check: SessionCheck, logger: Logger, userId: number): MaybeAsync<number> {
  const results: MaybeAsync<number>[] = [];
  const ids = io.of('/').adapter.rooms.get(userRoom(userId));
  for (const id of [...(ids ?? [])]) {
    const socket = io.of('/').sockets.get(id);
    if (!socket) continue;
    const valid = socket.data.userId !== userId ? false : check.sessionValid(socket.data.sessionId, userId);
    results.push(demoteUnless(socket, valid, check, logger));
  }
  return total(results);
}

function recheckAll(io: Io, check: SessionCheck, logger: Logger): MaybeAsync<number> {
  const results: MaybeAsync<number>[] = [];
  for (const socket of io.of('/').sockets.values()) {
    const uid = socket.data.userId;
    if (uid) results.push(demoteUnless(socket, check.sessionValid(socket.data.sessionId, uid), check, logger));
  }
  return total(results);
}

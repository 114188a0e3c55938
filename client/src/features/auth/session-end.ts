/**
 * What the login page says after a session ended under an open page, and where to return
 * after logging in again. A module-level note rather than router state: the /login visit can be started
 * by the session watcher, a protected route or a component, and any of them must show the message.
 */
import type { SessionEndedEvent } from '@shared/socket-events';

export type SessionEndReason = SessionEndedEvent['reason'];

export interface SessionEndNote {
  reason: SessionEndReason;
  /** The page the user was on (path + query), to go back to after logging in. */
  from: string | null;
}

let note: SessionEndNote | null = null;
let loggingOut = false;

export function noteSessionEnd(n: SessionEndNote): void {
  note = n;
}

/** The note, without consuming it (React may render the login page twice). */
export function peekSessionEnd(): SessionEndNote | null {
  return note;
}

export function clearSessionEnd(): void {
  note = null;
}

/**
 * This tab is logging out: the `session:ended` its own socket hears is expected and must not send the
 * user to /login with a "session expired" message. Reset when someone logs in again (or the call failed).
 */
export function setLoggingOut(on: boolean): void {
  loggingOut = on;
}

export function isLoggingOut(): boolean {
  return loggingOut;
}

import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/socket-events';

/** The app's socket, typed by the shared contract (docs/socket-contract.md). */
export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;

/**
 * The ONE socket.io connection of the app: same origin, default path /socket.io, session cookie sent.
 * Created lazily and not connected until the live layer calls connect().
 */
export function getSocket(): AppSocket {
  if (!socket) {
    socket = io({ withCredentials: true, autoConnect: false, reconnectionDelay: 500, reconnectionDelayMax: 4000 });
  }
  return socket;
}

/** Whether the socket exists (the live layer has started). */
export function hasSocket(): boolean {
  return socket !== null;
}

/**
 * Reconnects with the current cookies: after login, logout or a password change the session id changes and
 * the server fixes the identity at the handshake, so only a new handshake joins (or leaves) `user:{id}`.
 */
export function reconnectSocket(): void {
  if (!socket) return;
  socket.disconnect();
  socket.connect();
}

/** Closes the connection (the app unmounts, or the browser reports it is offline). */
export function disconnectSocket(): void {
  if (!socket) return;
  socket.disconnect();
}

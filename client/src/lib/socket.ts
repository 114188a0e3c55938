import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/socket-events';

/** The app's socket, typed by the shared contract (docs/socket-contract.md). */
export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;
let loading: Promise<AppSocket> | null = null;

/**
 * The ONE socket.io connection of the app: same origin, default path /socket.io, session cookie sent.
 * socket.io-client is a separate chunk loaded on first call (the live layer calls it after the first
 * render), so the first paint does not wait for it (docs/performance.md, B5). Created not connected: the
 * live layer calls connect(). A failed chunk load rejects and may be retried.
 */
export function loadSocket(): Promise<AppSocket> {
  if (socket) return Promise.resolve(socket);
  loading ??= import('socket.io-client').then(
    ({ io }) => {
      socket ??= io({ withCredentials: true, autoConnect: false, reconnectionDelay: 500, reconnectionDelayMax: 4000 });
      return socket;
    },
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

/**
 * Reconnects with the current cookies: after login, logout or a password change the session id changes and
 * the server fixes the identity at the handshake, so only a new handshake joins (or leaves) `user:{id}`.
 * Before the socket exists there is nothing to do: its first handshake will carry the current cookies.
 */
export function reconnectSocket(): void {
  if (!socket) return;
  socket.disconnect();
  socket.connect();
}

import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/socket-events';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * A real socket.io client over WebSocket (Node sends extraHeaders on the upgrade request; `transport:
 * 'polling'` for long-polling, as browsers start): pass the
 * ApiClient's cookie header to be logged in, and an Origin like a browser would (default: the server's own).
 * Resolves once connected; rejects with the connect error (e.g. a refused Origin).
 */
export function connectSocket(
  url: string,
  opts: { cookie?: string; origin?: string | null; timeoutMs?: number; transport?: 'websocket' | 'polling' } = {},
): Promise<TestSocket> {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  const origin = opts.origin === undefined ? new URL(url).origin : opts.origin;
  if (origin) headers.origin = origin;
  const socket: TestSocket = io(url, {
    transports: [opts.transport ?? 'websocket'],
    extraHeaders: headers,
    reconnection: false,
    forceNew: true,
    timeout: opts.timeoutMs ?? 5000,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

type EventArg<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>[0];

/** The next `event` on `socket`, or a rejection after `timeoutMs`. */
export function waitForEvent<E extends keyof ServerToClientEvents>(socket: TestSocket, event: E, timeoutMs = 2000): Promise<EventArg<E>> {
  return new Promise((resolve, reject) => {
    const s = socket as unknown as { once(e: string, l: (p: unknown) => void): void; off(e: string, l: (p: unknown) => void): void };
    const listener = (p: unknown) => {
      clearTimeout(timer);
      resolve(p as EventArg<E>);
    };
    const timer = setTimeout(() => {
      s.off(event, listener);
      reject(new Error(`no '${event}' within ${timeoutMs} ms`));
    }, timeoutMs);
    s.once(event, listener);
  });
}

/** Collects every `event` on `socket` into an array (for "never sees it" and ordering checks). */
export function collectEvents<E extends keyof ServerToClientEvents>(socket: TestSocket, event: E): EventArg<E>[] {
  const seen: EventArg<E>[] = [];
  (socket as unknown as { on(e: string, l: (p: unknown) => void): void }).on(event, (p) => seen.push(p as EventArg<E>));
  return seen;
}

type Ackd<E extends keyof ClientToServerEvents> = Parameters<Parameters<ClientToServerEvents[E]>[1]>[0];

/** Emits a client event and resolves with its acknowledgement (rejects after `timeoutMs`). */
export function emitWithAck<E extends keyof ClientToServerEvents>(
  socket: TestSocket,
  event: E,
  payload: Parameters<ClientToServerEvents[E]>[0],
  timeoutMs = 2000,
): Promise<Ackd<E>> {
  const s = socket as unknown as { timeout(ms: number): { emitWithAck(e: string, p: unknown): Promise<unknown> } };
  return s.timeout(timeoutMs).emitWithAck(event, payload) as Promise<Ackd<E>>;
}

/** Resolves once the socket is disconnected (with the reason). */
export function waitForDisconnect(socket: TestSocket, timeoutMs = 2000): Promise<string> {
  if (socket.disconnected) return Promise.resolve('already disconnected');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still connected after ${timeoutMs} ms`)), timeoutMs);
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Keeps every socket a test opens so one `afterEach(sockets.closeAll)` closes them all.
 * `connect` takes the same arguments as connectSocket.
 */
export function socketTracker() {
  const open: TestSocket[] = [];
  return {
    async connect(...args: Parameters<typeof connectSocket>): Promise<TestSocket> {
      const s = await connectSocket(...args);
      open.push(s);
      return s;
    },
    closeAll(): void {
      for (const s of open.splice(0)) s.close();
    },
  };
}

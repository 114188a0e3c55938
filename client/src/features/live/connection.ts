/**
 * The socket's life: loading socket.io-client (a lazy chunk), connecting, following the browser's network
 * and visibility, the status the user sees, the server clock, and the retry after the server dropped us.
 * What the server's events mean is not its business: the owner registers those handlers in `listen`.
 */
import type { Socket } from 'socket.io-client';
import { loadSocket, type AppSocket } from '../../lib/socket';
import { setOffset } from '../../lib/clock';
import { measureOffset } from './clock-sync';
import { createStore } from './store';
import { Timers } from './timers';

/** connecting: before the first connect; offline: lost (shown); restored: back (shown for a moment). */
export type LiveStatus = 'connecting' | 'online' | 'offline' | 'restored';

/** How long an acknowledged emit may wait for its answer. */
export const ACK_MS = 8_000;
const RESTORED_MS = 4_000;
const SERVER_DROP_RETRY_MS = 3_000;

/** Adds a listener to the bound socket; stop() removes it. */
export type Listen = <A extends unknown[]>(event: string, fn: (...a: A) => void) => void;

export interface ConnectionOwner {
  /** Registers the handlers of the server's events, once per bound socket. */
  listen(on: Listen): void;
  /** Connected; `again` when an earlier connection was lost or replaced (events sent meanwhile are gone). */
  connected(again: boolean): void;
  /** Disconnected: no room is live any more. */
  disconnected(): void;
}

export class Connection {
  readonly status = createStore<LiveStatus>('connecting');
  private socket: AppSocket | null = null;
  private everConnected = false;
  private networkDown = false;
  private cleanups: (() => void)[] = [];
  private timers = new Timers();
  /** Bumped by start() and stop(): a socket that finishes loading after a stop (or a newer start) is not bound. */
  private generation = 0;

  constructor(private readonly owner: ConnectionOwner) {}

  /** The socket if it is connected (rooms are joined and left only then), else null. */
  get connected(): AppSocket | null {
    return this.socket?.connected ? this.socket : null;
  }

  /** Opens the socket (idempotent): the given one, or the app's once its chunk loads; a failed load is retried. */
  start(socket?: AppSocket): void {
    if (this.socket) return;
    if (socket) return this.bind(socket);
    const gen = ++this.generation;
    const load = () =>
      loadSocket().then(
        (s) => {
          if (gen === this.generation && !this.socket) this.bind(s);
        },
        () => {
          if (gen === this.generation) this.timers.later(SERVER_DROP_RETRY_MS, () => void load());
        },
      );
    void load();
  }

  stop(): void {
    this.generation++;
    for (const c of this.cleanups.splice(0)) c();
    this.timers.clear();
    this.socket?.disconnect();
    this.socket = null;
    this.everConnected = false;
    this.status.set('connecting');
  }

  /** time:sync a few times, keep the lowest-RTT offset (docs/socket-contract.md §2). */
  async syncClock(): Promise<void> {
    const s = this.socket;
    if (!s) return;
    const best = await measureOffset((client_time) => s.timeout(ACK_MS).emitWithAck('time:sync', { client_time }), 5);
    if (best) setOffset(Math.round(best.offset));
  }

  private bind(socket: AppSocket): void {
    this.socket = socket;
    // Listeners take what the wire carries (each checks its payload), so the socket is used untyped here.
    const wire: Socket = socket;
    const on: Listen = (event, fn) => {
      wire.on(event, fn);
      this.cleanups.push(() => wire.off(event, fn));
    };
    on('connect', () => this.onConnect());
    on('disconnect', (reason: string) => this.onDisconnect(reason));
    on('connect_error', () => {
      if (this.everConnected) this.status.set('offline');
    });
    this.owner.listen(on);
    if (typeof window !== 'undefined') this.followBrowser(socket);
    if (!this.networkDown) socket.connect();
  }

  private followBrowser(socket: AppSocket): void {
    const offline = () => {
      // The browser knows the network is gone before any ping times out: say so at once.
      this.networkDown = true;
      this.status.set('offline');
      socket.disconnect();
    };
    const online = () => {
      this.networkDown = false;
      if (!socket.connected) socket.connect();
    };
    const visible = () => {
      if (document.visibilityState === 'visible' && socket.connected) void this.syncClock();
    };
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    document.addEventListener('visibilitychange', visible);
    this.cleanups.push(() => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      document.removeEventListener('visibilitychange', visible);
    });
    this.networkDown = typeof navigator !== 'undefined' && navigator.onLine === false;
  }

  private onConnect(): void {
    const again = this.everConnected;
    this.everConnected = true;
    // A reconnect we asked for (login, logout) was never shown as lost, so it is not "restored" either.
    if (this.status.get() === 'offline') {
      this.status.set('restored');
      this.timers.later(RESTORED_MS, () => {
        if (this.status.get() === 'restored') this.status.set('online');
      });
    } else {
      this.status.set('online');
    }
    void this.syncClock();
    this.owner.connected(again);
  }

  private onDisconnect(reason: string): void {
    this.owner.disconnected();
    if (reason === 'io client disconnect' && !this.networkDown) return; // our own reconnect or stop
    this.status.set('offline');
    if (reason === 'io server disconnect') {
      // The server closed us (flood control): socket.io does not retry by itself.
      this.timers.later(SERVER_DROP_RETRY_MS, () => {
        if (this.socket && !this.socket.connected && !this.networkDown) this.socket.connect();
      });
    }
  }
}

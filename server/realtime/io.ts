import type { Socket } from 'socket.io';
import type { ClientToServerEvents, InterServerEvents, ServerToClientEvents, SocketData } from '@shared/socket-events';
import type { Io } from '../context';

/** The typed socket.io server (declared with the app's ports, context.ts) and socket of shared/socket-events.ts. */
export type { Io };
export type IoSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/**
 * Acknowledgements of inbound events. socket.io passes a client's callback as the last argument; it is absent
 * when the client sent none, and a malformed client may send anything, so nothing is assumed about arguments.
 */
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { AckError, ClientToServerEvents } from '@shared/socket-events';
import type { IoSocket } from './io';
import { rtTexts } from '@shared/texts/realtime';

/** The callback of an event whose answers are `R` (any event may also be refused with an AckError). */
export type Ack<R> = (answer: R | AckError) => void;

/** A function among a client's arguments is its ack: that is how socket.io passes it. */
function isAck<R>(arg: unknown): arg is Ack<R> {
  return typeof arg === 'function';
}

/** The ack among `args` (the last one, if a function), or one that drops the answer. */
export function ackOf<R>(args: readonly unknown[]): Ack<R> {
  const last = args[args.length - 1];
  return isAck<R>(last) ? last : () => {};
}

/** A listener socket.io calls with the socket as `this` (EventEmitter's rule): one function serves every socket. */
type Listener<R> = (this: IoSocket, payload: unknown, ack: Ack<R>) => void;

/**
 * `[event, listener]` for socket.on(...): the listener parses the first argument with `schema` and acks what
 * `handle` answers for the socket it was called on. Bad input and a thrown error become `{ok:false, detail}`; a
 * socket that disconnected meanwhile gets no answer. Built once per server, not per socket (B9: 10,000 sockets
 * hold the same five functions). Typed by the answer, so socket.on checks it against the event's ack.
 */
export function acked<E extends keyof ClientToServerEvents, S extends z.ZodType, R>(
  logger: Logger,
  event: E,
  schema: S,
  handle: (socket: IoSocket, input: z.output<S>) => R | Promise<R>,
): [E, Listener<R>] {
  const answer = async (socket: IoSocket, input: z.output<S>, ack: Ack<R>): Promise<void> => {
    let result: R | AckError;
    try {
      result = await handle(socket, input);
    } catch (err) {
      logger.error({ err, event }, 'socket handler failed');
      result = { ok: false, detail: rtTexts.internal };
    }
    if (socket.connected) ack(result);
  };
  function listener(this: IoSocket, ...args: unknown[]): void {
    const ack = ackOf<R>(args);
    const parsed = schema.safeParse(args[0]);
    if (!parsed.success) return ack({ ok: false, detail: rtTexts.invalid });
    void answer(this, parsed.data, ack);
  }
  return [event, listener];
}

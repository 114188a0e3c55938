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

type Listener<R> = (payload: unknown, ack: Ack<R>) => void;

/**
 * `[event, listener]` for socket.on(...): the listener parses the first argument with `schema` and acks what
 * `handle` answers. Bad input and a thrown error become `{ok:false, detail}`; a socket that disconnected
 * meanwhile gets no answer. Typed by the answer, so socket.on checks it against the event's ack.
 */
export function acked<E extends keyof ClientToServerEvents, S extends z.ZodType, R>(
  socket: IoSocket,
  logger: Logger,
  event: E,
  schema: S,
  handle: (input: z.output<S>) => R | Promise<R>,
): [E, Listener<R>] {
  const listener = (...args: unknown[]): void => {
    const ack = ackOf<R>(args);
    const parsed = schema.safeParse(args[0]);
    if (!parsed.success) return ack({ ok: false, detail: rtTexts.invalid });
    void (async () => {
      let answer: R | AckError;
      try {
        answer = await handle(parsed.data);
      } catch (err) {
        logger.error({ err, event }, 'socket handler failed');
        answer = { ok: false, detail: rtTexts.internal };
      }
      if (socket.connected) ack(answer);
    })();
  };
  return [event, listener];
}

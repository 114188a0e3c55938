/**
 * Per-socket flood control: a token bucket, so one noisy socket never slows anyone else. It stays in the
 * process even with several nodes: a socket lives on exactly one node for its whole life, so its bucket sees
 * every event it sends, and a shared counter would put a Redis round trip in front of every inbound event.
 * What crosses nodes (one client's many requests) is counted by the HTTP limits, which share Redis.
 */
import type { Logger } from 'pino';
import { ackOf } from './acks';
import type { IoSocket } from './io';
import { rtTexts } from '@shared/texts/realtime';

export interface FloodOptions {
  /** Tokens added per second (sustained events per second). */
  ratePerSec: number;
  /** Bucket size (events allowed in a burst). */
  burst: number;
  /** Refused events (net of a slow decay) after which the socket is disconnected. */
  maxStrikes: number;
}

export const DEFAULT_FLOOD: FloodOptions = { ratePerSec: 20, burst: 40, maxStrikes: 40 };

export type FloodVerdict = 'ok' | 'refuse' | 'disconnect';

export class TokenBucket {
  private tokens: number;
  private last: number;
  private strikes = 0;

  constructor(
    private readonly opts: FloodOptions,
    now = Date.now(),
  ) {
    this.tokens = opts.burst;
    this.last = now;
  }

  /** Takes one token for an inbound event. */
  take(now = Date.now()): FloodVerdict {
    const elapsed = Math.max(0, now - this.last) / 1000;
    this.last = now;
    this.tokens = Math.min(this.opts.burst, this.tokens + elapsed * this.opts.ratePerSec);
    // A socket that calms down is forgiven gradually (one strike per second of quiet-ish behaviour).
    this.strikes = Math.max(0, this.strikes - elapsed);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 'ok';
    }
    this.strikes += 1;
    return this.strikes > this.opts.maxStrikes ? 'disconnect' : 'refuse';
  }
}

/**
 * Puts `socket` behind its own token bucket: a refused event is answered `{ok:false}` (if it has an ack) and
 * never reaches its handler; a socket that keeps flooding is disconnected.
 */
export function guardFlood(socket: IoSocket, options: FloodOptions, logger: Logger): void {
  const bucket = new TokenBucket(options);
  socket.use((packet, next) => {
    const verdict = bucket.take();
    if (verdict === 'ok') return next();
    ackOf(packet)({ ok: false, detail: rtTexts.flood });
    if (verdict === 'disconnect') {
      logger.warn({ socket: socket.id, userId: socket.data.userId }, 'socket disconnected for flooding');
      socket.disconnect(true);
    }
  });
}

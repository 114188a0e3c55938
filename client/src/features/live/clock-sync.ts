import { clockOffset } from '@shared/socket-helpers';
import type { TimeSyncAck } from '@shared/socket-events';

export interface ClockSample {
  offset: number;
  rtt: number;
}

/** The sample with the lowest round trip (its midpoint estimate is the tightest), or null. */
export function bestSample(samples: ClockSample[]): ClockSample | null {
  let best: ClockSample | null = null;
  for (const s of samples) {
    if (!Number.isFinite(s.offset) || !Number.isFinite(s.rtt)) continue;
    if (!best || s.rtt < best.rtt) best = s;
  }
  return best;
}

/** One round trip: (clientTime) → ack. */
export type TimeSyncRequest = (clientTime: number) => Promise<TimeSyncAck>;

/**
 * NTP-style offset from `count` sequential `time:sync` round trips (docs/socket-contract.md §2): each gives
 * offset = server_time − (t0 + t1)/2; the lowest-RTT sample wins. Failed samples are skipped; null if none
 * succeeded. `clock` is the local clock (Date.now).
 */
export async function measureOffset(request: TimeSyncRequest, count = 5, clock: () => number = Date.now): Promise<ClockSample | null> {
  const samples: ClockSample[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = clock();
    try {
      const ack = await request(t0);
      const t1 = clock();
      if ('server_time' in ack && typeof ack.server_time === 'number' && ack.client_time === t0) {
        samples.push(clockOffset(t0, t1, ack.server_time));
      }
    } catch {
      // a lost or refused sample: the others still count
    }
  }
  return bestSample(samples);
}

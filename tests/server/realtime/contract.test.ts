import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { auctionIdOfRoom, auctionRoom, clockOffset, seqVerdict, userRoom } from '@shared/socket-events';

describe('room names', () => {
  it('auction:{id} and user:{id}, and only auction rooms parse back to an id', () => {
    expect(auctionRoom(12)).toBe('auction:12');
    expect(userRoom(12)).toBe('user:12');
    expect(auctionIdOfRoom('auction:12')).toBe(12);
    expect(auctionIdOfRoom('user:12')).toBeNull();
    expect(auctionIdOfRoom('auction:12x')).toBeNull();
    expect(auctionIdOfRoom('Xq3_socketid')).toBeNull();
  });
});

describe('seqVerdict', () => {
  it('applies exactly the next seq, ignores old ones, flags gaps', () => {
    expect(seqVerdict(4, 5)).toBe('next');
    expect(seqVerdict(4, 4)).toBe('stale');
    expect(seqVerdict(4, 2)).toBe('stale');
    expect(seqVerdict(4, 6)).toBe('gap');
  });

  it('replaying any shuffled, duplicated stream never applies an event twice or out of order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 30 })), (stream) => {
        let known = 0;
        const applied: number[] = [];
        for (const s of stream) if (seqVerdict(known, s) === 'next') applied.push((known = s));
        expect(applied).toEqual(Array.from({ length: applied.length }, (_, i) => i + 1));
      }),
    );
  });
});

describe('clockOffset', () => {
  it('cancels a symmetric round trip and a client clock one hour off', () => {
    const hour = 3600_000;
    // Client is one hour behind; 80 ms each way; the server answered at its 1_000_080.
    const sent = 1_000_000 - hour;
    const r = clockOffset(sent, sent + 160, 1_000_080);
    expect(r.rtt).toBe(160);
    expect(r.offset).toBe(hour);
  });
});

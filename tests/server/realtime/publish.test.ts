import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../server/context';
import type { NotificationResponse } from '@shared/schemas/notifications';
import type { DomainEvent } from '../../../server/events';
import { publish } from '../../../server/realtime/publish';

interface Sent {
  to: string;
  event: string;
  payload: unknown;
}

/** A context whose realtime records what it is asked to emit; `failOn` makes that event's emit throw. */
function fakeContext(failOn?: string) {
  const sent: Sent[] = [];
  const warnings: unknown[] = [];
  const emit = (to: string) => (event: string, payload: unknown) => {
    if (event === failOn) throw new Error('socket gone');
    sent.push({ to, event, payload });
  };
  const ctx = {
    realtime: {
      toAuction: (id: number, event: string, payload: unknown) => emit(`auction:${id}`)(event, payload),
      toUser: (id: number, event: string, payload: unknown) => emit(`user:${id}`)(event, payload),
    },
    logger: { warn: (obj: unknown) => warnings.push(obj) },
  } as unknown as AppContext;
  return { ctx, sent, warnings };
}

// Events carry notifications as presented by their service (server/events.ts).
const note: NotificationResponse = { id: 9, auction_id: 7, message: 'm', is_read: false, created_at: '2026-11-24T08:00:00.000Z', kind: 'new_bid' };
const bid = { id: 1, bidder: 3, bidder_name: 'Ana', amount: 1010, created_at: '2026-11-24T08:00:00.000Z', auto: false, buy_now: false };

const events: DomainEvent[] = [
  { type: 'bid:placed', payload: { auction_id: 7, seq: 1, bid, current_price: 1010, bid_count: 1, end_date: '2026-11-25T08:00:00.000Z', reserve_met: null } },
  { type: 'notification:changed', change: { type: 'created', userId: 4, notification: note, unread: 2 } },
  { type: 'notification:changed', change: { type: 'updated', userId: 5, notification: { ...note }, unread: 1 } },
  { type: 'comment:deleted', payload: { auction_id: 7, seq: 2, comment_id: 11 } },
  { type: 'notifications:read', userId: 4, unread: 0 },
  { type: 'auction:deleted', payload: { auction_id: 7, seq: 3 } },
];

describe('publish()', () => {
  it('sends each domain event to its room as its socket event, in the order given', () => {
    const { ctx, sent } = fakeContext();
    publish(ctx, events);
    expect(sent.map((s) => `${s.to} ${s.event}`)).toEqual([
      'auction:7 bid:placed',
      'user:4 notification:created',
      'user:5 notification:updated',
      'auction:7 comment:deleted',
      'user:4 notifications:count',
      'auction:7 auction:deleted',
    ]);
    expect(sent[1]!.payload).toEqual({
      notification: { id: 9, message: 'm', is_read: false, created_at: note.created_at, auction_id: 7, kind: 'new_bid' },
      unread_notifications_count: 2,
    });
    expect(sent[4]!.payload).toEqual({ unread_notifications_count: 0 });
  });

  it('logs a failing emit and goes on with the rest, never throwing', () => {
    const { ctx, sent, warnings } = fakeContext('bid:placed');
    expect(() => publish(ctx, events)).not.toThrow();
    expect(sent).toHaveLength(events.length - 1);
    expect(warnings).toEqual([expect.objectContaining({ event: 'bid:placed' })]);
  });
});

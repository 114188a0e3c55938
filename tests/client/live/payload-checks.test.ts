/**
 * The live layer checks socket events with client/src/features/live/payload-checks.js, which zod's compiler
 * generates from the shared schemas (scripts/gen-payload-checks.ts), to keep zod out of the first-visit bundle
 * (docs/performance.md, B5). The file must be what the generator writes from today's schemas, and each check
 * must agree with its zod schema: same accept/refuse verdict and the same cleaned value (unknown fields
 * dropped), for valid events, mutated events and arbitrary values.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { z } from 'zod';
import { AuctionClosedEvent, BidPlacedEvent } from '@shared/schemas/bids';
import { CommentCreatedEvent, CommentDeletedEvent } from '@shared/schemas/comments';
import { NotificationEvent, NotificationsCountEvent } from '@shared/schemas/notifications';
import { SessionEndedEvent } from '@shared/socket-events';
import { checkPayload, type ServerEventName } from '../../../client/src/features/live/payload-checks';
import { OUTPUT, payloadChecksSource } from '../../../scripts/gen-payload-checks';

const check = (event: ServerEventName, value: unknown) => checkPayload(event, value);
const [bidPlaced, auctionClosed, commentCreated, commentDeleted, notificationEvent, notificationsCount, sessionEnded] = [
  'bid:placed',
  'auction:closed',
  'comment:created',
  'comment:deleted',
  'notification:created',
  'notifications:count',
  'session:ended',
] as const satisfies readonly ServerEventName[];

it('payload-checks.js is what scripts/gen-payload-checks.ts writes from the current schemas (run it after a change)', () => {
  expect(fs.readFileSync(OUTPUT, 'utf8')).toBe(payloadChecksSource());
});

const valid = {
  bid: {
    auction_id: 4,
    seq: 9,
    bid: { id: 31, bidder: 7, bidder_name: 'Ana', amount: 1210, created_at: '2026-05-01T10:00:00.000Z', auto: false, buy_now: false },
    current_price: 1210,
    bid_count: 3,
    end_date: '2026-05-01T10:05:00.000Z',
    reserve_met: null,
  },
  closed: { auction_id: 4, seq: 10, status: 'ended', winner_id: null, final_price: 1210, end_date: '2026-05-01T10:05:00.000Z', outcome: 'reserve_not_met' },
  commentCreated: {
    auction_id: 4,
    seq: 11,
    comment: { id: 2, userId: 7, user: 'Ana', content: 'Pitanje?', created_at: '2026-05-01T10:00:00.000Z', is_seller: false },
  },
  commentDeleted: { auction_id: 4, seq: 12, comment_id: 2 },
  notification: {
    notification: { id: 5, message: 'Ponuda &lt;b&gt;', is_read: false, created_at: '2026-05-01T10:00:00.000Z', auction_id: 4, kind: 'new_bid' },
    unread_notifications_count: 2,
  },
  count: { unread_notifications_count: 0 },
  sessionEnded: { reason: 'blocked' },
};

const pairs: [string, ServerEventName, z.ZodType, unknown][] = [
  ['bid:placed', bidPlaced, BidPlacedEvent, valid.bid],
  ['auction:closed', auctionClosed, AuctionClosedEvent, valid.closed],
  ['comment:created', commentCreated, CommentCreatedEvent, valid.commentCreated],
  ['comment:deleted', commentDeleted, CommentDeletedEvent, valid.commentDeleted],
  ['notification:*', notificationEvent, NotificationEvent, valid.notification],
  ['notifications:count', notificationsCount, NotificationsCountEvent, valid.count],
  ['session:ended', sessionEnded, SessionEndedEvent, valid.sessionEnded],
];

function sameAsZod(guard: ServerEventName, schema: z.ZodType, value: unknown) {
  const z = schema.safeParse(value);
  expect(check(guard, value)).toEqual(z.success ? z.data : null);
}

/** Every path to a leaf of a plain object. */
function leaves(v: unknown, path: string[] = []): string[][] {
  if (typeof v !== 'object' || v === null) return [path];
  return Object.entries(v).flatMap(([k, x]) => leaves(x, [...path, k]));
}
function setAt(v: unknown, path: string[], x: unknown): unknown {
  if (path.length === 0) return x;
  const copy = { ...(v as Record<string, unknown>) };
  copy[path[0]] = setAt(copy[path[0]], path.slice(1), x);
  return copy;
}

const odd = [undefined, null, 'x', '', 0, -1, 1.5, NaN, Infinity, true, false, [], {}, 'ended', [1]];

describe('live event guards agree with the shared zod schemas', () => {
  for (const [name, guard, schema, ok] of pairs) {
    it(`${name}: accepts the valid event and drops unknown fields`, () => {
      expect(check(guard, ok)).toEqual(ok);
      const extra = setAt(ok, ['injected'], '<img onerror=x>');
      expect(check(guard, extra)).toEqual(ok);
      sameAsZod(guard, schema, extra);
    });

    it(`${name}: every field replaced by a wrong value gets the zod verdict`, () => {
      for (const path of leaves(ok)) {
        for (const x of odd) sameAsZod(guard, schema, setAt(ok, path, x));
        // A missing field is refused.
        const parent = path.slice(0, -1);
        const without = setAt(ok, parent, (() => {
          const o = { ...(parent.reduce<unknown>((a, k) => (a as Record<string, unknown>)[k], ok) as Record<string, unknown>) };
          delete o[path[path.length - 1]];
          return o;
        })());
        expect(check(guard, without)).toBeNull();
        sameAsZod(guard, schema, without);
      }
    });

    it(`${name}: arbitrary values get the zod verdict`, () => {
      fc.assert(fc.property(fc.anything(), (v) => sameAsZod(guard, schema, v)), { numRuns: 200 });
    });
  }

  it('refuses non-objects and arrays', () => {
    for (const v of [null, undefined, 1, 'x', [], [valid.count]]) expect(check(notificationsCount, v)).toBeNull();
  });
});

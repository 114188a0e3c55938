/**
 * The app's event sink (server/events.ts): a `first` subscriber (the list cache's version, issue 30) finishes
 * before any other starts, so no socket can announce a change before a list read would show it.
 */
import { describe, expect, it } from 'vitest';
import { createEventSink, type DomainEvent } from '../../../server/events';

const closed: DomainEvent[] = [{ type: 'auction:deleted', payload: { auction_id: 1, seq: 2 } }];

describe('createEventSink', () => {
  it('runs a first subscriber, awaited when it is async, before the others, and settles after all', async () => {
    const sink = createEventSink();
    const order: string[] = [];
    sink.subscribe(() => void order.push('socket'));
    sink.subscribe(
      async () => {
        await new Promise((r) => setTimeout(r, 20));
        order.push('version bumped');
      },
      { first: true },
    );
    const done = sink.publish(closed);
    expect(order).toEqual([]);
    await done;
    expect(order).toEqual(['version bumped', 'socket']);
  });

  it('stays synchronous while every subscriber is (one node)', () => {
    const sink = createEventSink();
    const order: string[] = [];
    sink.subscribe(() => void order.push('socket'));
    sink.subscribe(() => void order.push('version bumped'), { first: true });
    expect(sink.publish(closed)).toBeUndefined();
    expect(order).toEqual(['version bumped', 'socket']);
  });
});

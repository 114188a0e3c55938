/**
 * The unit of work: runs a service's writes in one transaction, and only after the commit hands the events
 * they produced to the app's sink (ctx.events), so a rolled-back write announces nothing. Routes and jobs
 * (the closer, the ending-soon alerts) never publish themselves: their services go through here.
 */
import type { Transaction } from 'kysely';
import type { AppContext } from './context';
import type { Database } from './db/types';
import { transactUnlessReadOnly } from './db/transactions';
import type { DomainEvent } from './events';

export interface UnitOptions<T> {
  /** The events of the result (none for a refusal or a replay), handed to the sink after the commit. */
  events: (result: T) => readonly DomainEvent[] | null | undefined;
  /**
   * Commit only when this says the work wrote, else roll back (db/transactions.ts says why: a refused bid's
   * row lock is freed without a WAL flush). Without it the transaction always commits.
   */
  wrote?: (result: T) => boolean;
}

/** `work` in a transaction; after the commit its events go to ctx.events (awaited only when a subscriber is async). */
export async function unitOfWork<T>(ctx: Pick<AppContext, 'db' | 'events'>, work: (tx: Transaction<Database>) => Promise<T>, opts: UnitOptions<T>): Promise<T> {
  const result = opts.wrote ? await transactUnlessReadOnly(ctx.db, work, opts.wrote) : await ctx.db.transaction().execute(work);
  const events = opts.events(result);
  if (events?.length) {
    const published = ctx.events.publish(events);
    if (published) await published;
  }
  return result;
}

import type { DomainEvent } from '../../events';
import { NO_EVENTS } from '../../events';
import type { AppError } from '../../http/errors';

/** The first answer to an earlier request with the same Idempotency-Key: status and the exact JSON body. */
export interface Replay {
  status: number;
  body: string;
}

/**
 * The one result of a bid (POST /api/bids/) or a maximum (PUT /api/auctions/{id}/auto-bid/): accepted with its
 * presented answer, refused with the error the one error shape writes (server/http/errors.ts), or replayed
 * (an Idempotency-Key seen before). Each carries the events its transaction committed, already handed to the
 * sink by the unit of work: a refusal can have some (a manual bid equal to the leader's maximum commits the
 * leader's row first). A rule never throws: only a failure does.
 */
export type BidResult<T> =
  | { outcome: 'accepted'; body: T; events: readonly DomainEvent[] }
  | { outcome: 'refused'; error: AppError; events: readonly DomainEvent[] }
  | { outcome: 'replayed'; replay: Replay; events: readonly DomainEvent[] };

/** A refusal that wrote nothing. */
export function refused(error: AppError): { outcome: 'refused'; error: AppError; events: readonly DomainEvent[] } {
  return { outcome: 'refused', error, events: NO_EVENTS };
}

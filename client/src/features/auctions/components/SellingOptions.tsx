import { sellingTexts } from '@shared/texts/selling';
import type { AuctionCard } from '@shared/schemas/auctions';
import { formatNumber } from '../../../lib/format';

type Options = Pick<AuctionCard, 'has_reserve' | 'reserve_met' | 'reserve_price' | 'outcome'>;

/**
 * The hidden reserve as cards and the detail show it (issue 25): 'Rezervna cena nije dostignuta' below it,
 * 'Rezervna cena je dostignuta' at or above; the amount only to the seller (the server sends it only to them).
 * Nothing without a reserve.
 */
export function ReserveStatus({ auction, className }: { auction: Options; className: string }) {
  if (!auction.has_reserve) return null;
  const met = auction.reserve_met === true;
  return (
    <p className={`${className} reserve reserve--${met ? 'met' : 'not-met'}`} data-testid="reserve-status">
      {met ? sellingTexts.reserveMet : sellingTexts.reserveNotMet}
      {typeof auction.reserve_price === 'number' && <span className="reserve__own"> · {sellingTexts.ownReserve(formatNumber(auction.reserve_price))}</span>}
    </p>
  );
}

/** An ended auction's outcome where it is not the usual sale: no sale below the reserve. */
export function OutcomeNote({ auction }: { auction: Options }) {
  if (auction.outcome !== 'reserve_not_met') return null;
  return (
    <p className="detail__note detail__outcome" data-testid="auction-outcome" role="status">
      {sellingTexts.outcomeReserveNotMet}
    </p>
  );
}

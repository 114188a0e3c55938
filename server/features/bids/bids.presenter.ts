import type { Bid } from '../../db/types';
import type { BidPlacedEvent, BidResponse, PlacedBidResponse } from '@shared/schemas/bids';
import type { AutoBidResponse } from '@shared/schemas/autobid';
import type { AcceptedState } from './bids.repository';
import { reserveMet } from '@shared/rules/buy-now';

export function presentBid(b: Bid & { bidder_name: string }): BidResponse {
  return { id: b.id, bidder: b.bidder_id, bidder_name: b.bidder_name, amount: b.amount, created_at: b.created_at, auto: b.auto === 1, buy_now: b.buy_now === 1 };
}

/** The bid as placed, the auction after every row of the request (an automatic answer included) and who leads. */
export function presentPlacedBid(bid: BidResponse, state: AcceptedState, leading: boolean): PlacedBidResponse {
  return { ...bid, current_price: state.current_price, bid_count: state.bid_count, end_date: state.end_date, leading };
}

/** `reserve`: the auction's hidden reserve, of which only whether this row meets it is told (issue 25). */
export function presentBidPlacedEvent(bid: BidResponse, state: AcceptedState, reserve: number | null): BidPlacedEvent {
  return {
    auction_id: state.id,
    seq: state.seq,
    bid,
    current_price: state.current_price,
    bid_count: state.bid_count,
    end_date: state.end_date,
    reserve_met: reserveMet(state.current_price, state.bid_count, reserve),
  };
}

/** The owner's own maximum (never shown to anyone else) and the auction after the rows it wrote. */
export function presentAutoBid(maxAmount: number, state: Pick<AcceptedState, 'current_price' | 'bid_count'>, leading: boolean): AutoBidResponse {
  return { max_amount: maxAmount, current_price: state.current_price, bid_count: state.bid_count, leading };
}

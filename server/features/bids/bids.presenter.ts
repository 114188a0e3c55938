import type { Bid } from '../../db/types';
import type { BidPlacedEvent, BidResponse, PlacedBidResponse } from '@shared/schemas/bids';
import type { AcceptedState } from './bids.repository';

export function presentBid(b: Bid & { bidder_name: string }): BidResponse {
  return { id: b.id, bidder: b.bidder_id, bidder_name: b.bidder_name, amount: b.amount, created_at: b.created_at };
}

export function presentPlacedBid(bid: BidResponse, state: AcceptedState): PlacedBidResponse {
  return { ...bid, current_price: state.current_price, bid_count: state.bid_count, end_date: state.end_date };
}

export function presentBidPlacedEvent(bid: BidResponse, state: AcceptedState): BidPlacedEvent {
  return {
    auction_id: state.id,
    seq: state.seq,
    bid,
    current_price: state.current_price,
    bid_count: state.bid_count,
    end_date: state.end_date,
  };
}

import type { AuctionCard, AuctionDetail, Paged, Sort } from '@shared/schemas/auctions';

export type { AuctionCard, AuctionDetail, Paged, Sort };

export interface Seller {
  first_name: string;
  id: number;
}

export interface Bid {
  id: number;
  bidder: number;
  bidder_name: string;
  amount: number;
  created_at: string;
}

export interface Comment {
  id: number;
  userId: number;
  user: string;
  content: string;
  created_at: string;
  is_seller: boolean;
}

/** The list screen's state, also kept in the URL (?page=&q=&category=&sort=). */
export interface ListParams {
  page: number;
  q: string;
  sort: Sort;
  /** Only on /aukcije; '' or 'all-auctions' means every category. */
  category: string;
}

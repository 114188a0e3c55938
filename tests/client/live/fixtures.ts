import type { AuctionCard, AuctionDetail } from '@shared/schemas/auctions';

export const END = '2026-05-01T10:00:00.000Z';

/** An open auction's detail as the server sends it; tests override what they watch. */
export const auctionDetail = (over: Partial<AuctionDetail> = {}): AuctionDetail => ({
  id: 1,
  title: 'Gramofon',
  description: 'Opis',
  current_price: 1100,
  starting_price: 1000,
  seller: 3,
  seller_name: 'Prodavac',
  end_date: END,
  city: 'Beograd',
  phone_number: '0641234567',
  category: 'electronics',
  bid_count: 1,
  status: 'active',
  winner: null,
  created_at: '2026-04-20T10:00:00.000Z',
  images: [],
  watched: false,
  watch_count: 0,
  viewer_blocked: false,
  buy_now_price: null,
  has_reserve: false,
  reserve_met: null,
  outcome: null,
  relisted_as: null,
  relisted_from: null,
  relist_count: 0,
  seller_rating: { positive: 0, negative: 0 },
  ...over,
});

/** An open auction's card as the lists send it; tests override what they watch. */
export const auctionCard = (over: Partial<AuctionCard> = {}): AuctionCard => ({
  id: 1,
  title: 'Gramofon',
  description: 'Opis',
  current_price: 1100,
  end_date: END,
  category: 'electronics',
  city: 'Beograd',
  seller: 3,
  first_image: null,
  images: [],
  bid_count: 1,
  status: 'active',
  watched: false,
  buy_now_price: null,
  has_reserve: false,
  reserve_met: null,
  outcome: null,
  relisted_as: null,
  ...over,
});

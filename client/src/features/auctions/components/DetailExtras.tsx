import type { AuctionDetail } from '@shared/schemas/auctions';
import { BidExtras } from './BuyNowBox';
import SellerTools from './SellerTools';

/**
 * What the detail page loads lazily, in one chunk (one lazy import: its 130 KiB first-load budget has no room
 * for two): the seller's tools on their own auction (issue 26), else for a member the seller blocked the sentence
 * instead of the bid box (issue 24), else "Kupi odmah" where it is offered (issue 25).
 */
export default function DetailExtras({ auction, isSeller }: { auction: AuctionDetail; isSeller: boolean }) {
  if (isSeller) return <SellerTools auction={auction} />;
  return <BidExtras auctionId={auction.id} price={auction.buy_now_price} blocked={auction.viewer_blocked} />;
}

import type { AuctionDetail } from '@shared/schemas/auctions';
import { BuyNowBox } from './BuyNowBox';
import SellerTools from './SellerTools';

/**
 * What the detail page loads lazily, in one chunk (one lazy import: its 130 KiB first-load budget has no room
 * for two): the seller's tools on their own auction (issue 26), else "Kupi odmah" where it is offered (issue 25).
 */
export default function DetailExtras({ auction, isSeller }: { auction: AuctionDetail; isSeller: boolean }) {
  if (isSeller) return <SellerTools auction={auction} />;
  return auction.buy_now_price !== null ? <BuyNowBox auctionId={auction.id} price={auction.buy_now_price} /> : null;
}

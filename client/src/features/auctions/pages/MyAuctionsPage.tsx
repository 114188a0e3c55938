import { sr } from '@shared/texts/sr';
import { AuctionList } from '../components/AuctionList';
import SellerTools from '../components/SellerTools';

/**
 * /moje-aukcije ('Moje Aukcije'): the user's own auctions; those without bids can be deleted, an open one
 * without bids edited and one that ended unsold relisted (issue 26).
 */
export default function MyAuctionsPage() {
  return (
    <div className="page page--auctions">
      <AuctionList source="mine" title={sr.myAuctions.title} markEnded deletable cardActions={(a) => <SellerTools auction={a} />} />
    </div>
  );
}

import { sr } from '@shared/texts/sr';
import { AuctionList } from '../components/AuctionList';

/** /moje-aukcije ('Moje Aukcije'): the user's own auctions; those without bids can be deleted. */
export default function MyAuctionsPage() {
  return (
    <div className="page page--auctions">
      <AuctionList source="mine" title={sr.myAuctions.title} markEnded deletable />
    </div>
  );
}

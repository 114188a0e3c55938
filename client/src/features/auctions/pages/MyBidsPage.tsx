import { sr } from '@shared/texts/sr';
import { AuctionList } from '../components/AuctionList';

/** /moje-licitacije ('Moje Licitacije'): auctions the user has bid on. */
export default function MyBidsPage() {
  return (
    <div className="page page--auctions">
      <AuctionList source="bids" title={sr.myBids.title} markEnded />
    </div>
  );
}

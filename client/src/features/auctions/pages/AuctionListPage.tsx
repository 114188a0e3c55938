import { sr } from '@shared/texts/sr';
import { AuctionList } from '../components/AuctionList';

/** /aukcije (and bare /aukcija): every open auction, with category, search, sort and paging. */
export default function AuctionListPage() {
  return (
    <div className="page page--auctions">
      <AuctionList source="all" title={sr.auctions.listTitle} titleHidden />
    </div>
  );
}

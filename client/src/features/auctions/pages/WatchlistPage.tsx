import { sr } from '@shared/texts/sr';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AuctionList } from '../components/AuctionList';

/** /pracene ('Praćene aukcije'): the auctions the user follows, ended ones marked. */
export default function WatchlistPage() {
  useDocumentTitle(sr.watch.title);
  return (
    <div className="page page--auctions">
      <AuctionList source="watched" title={sr.watch.title} markEnded emptyText={sr.watch.empty} />
    </div>
  );
}

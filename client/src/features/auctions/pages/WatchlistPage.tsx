import { watchlistTexts } from '@shared/texts/watchlist';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AuctionList } from '../components/AuctionList';

/** /pracene ('Praćene aukcije'): the auctions the user follows, ended ones marked. */
export default function WatchlistPage() {
  useDocumentTitle(watchlistTexts.title);
  return (
    <div className="page page--auctions">
      <AuctionList source="watched" title={watchlistTexts.title} markEnded emptyText={watchlistTexts.empty} />
    </div>
  );
}

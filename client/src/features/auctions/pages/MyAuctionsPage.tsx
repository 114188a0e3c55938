import { lazy, Suspense } from 'react';
import { sr } from '@shared/texts/sr';
import { AuctionList } from '../components/AuctionList';

/**
 * The seller's 'Izmeni' and 'Ponovo postavi' (issue 26), shared with the detail page's lazy chunk: loaded lazily
 * here too, so the router's entry for this page (in every first load) names no extra file.
 */
const SellerTools = lazy(() => import('../components/SellerTools'));

/**
 * /moje-aukcije ('Moje Aukcije'): the user's own auctions; those without bids can be deleted, an open one
 * without bids edited and one that ended unsold relisted (issue 26).
 */
export default function MyAuctionsPage() {
  return (
    <div className="page page--auctions">
      <AuctionList
        source="mine"
        title={sr.myAuctions.title}
        markEnded
        deletable
        cardActions={(a) => (
          <Suspense fallback={null}>
            <SellerTools auction={a} />
          </Suspense>
        )}
      />
    </div>
  );
}

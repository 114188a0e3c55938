import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { categoryLabel } from '@shared/categories';
import { isOpen } from '@shared/rules/bids';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { Countdown } from '../../../components/Countdown';
import { RatingScore } from '../../../components/RatingScore';
import { ApiError } from '../../../lib/api';
import { formatPrice } from '../../../lib/format';
import { now } from '../../../lib/clock';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAuth } from '../../auth/use-auth';
import { ReportButton } from '../../reports';
import { useLiveAuction } from '../../live/hooks';
import { useAuction, useSeller } from '../api/auction-detail';
import { Slideshow } from '../components/Slideshow';
import { BidBox } from '../components/BidBox';
import { WatchButton } from '../components/WatchButton';
import { Comments } from '../components/Comments';
import { OutcomeNote, ReserveStatus } from '../components/SellingOptions';
import '../components/auctions.css';
import '../components/detail.css';

/** The bid history: loaded when first opened (issue 24 made room on this page, at the first-load budget, this way). */
const BidHistoryDialog = lazy(() => import('../components/BidHistoryDialog').then((m) => ({ default: m.BidHistoryDialog })));
/**
 * "Kupi odmah" (issue 25), the sentence for a member the seller blocked (issue 24), and the seller's 'Izmeni' and
 * 'Ponovo postavi' (issue 26): only an auction that shows one of them loads their code.
 */
const DetailExtras = lazy(() => import('../components/DetailExtras'));

/** /aukcija/:id */
export default function AuctionDetailPage() {
  const { id: rawId } = useParams();
  const id = /^\d{1,15}$/.test(rawId ?? '') ? Number(rawId) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) return <NotFound />;
  return <AuctionDetail key={id} id={id} />;
}

function NotFound() {
  return (
    <div className="page">
      <p className="auction-list__empty">{sr.auctions.notFound}</p>
    </div>
  );
}

/** White page background under 768 px while the detail is shown (spec §2). */
function useWhiteMobileBackground() {
  useEffect(() => {
    document.body.classList.add('body--detail');
    return () => document.body.classList.remove('body--detail');
  }, []);
}

function AuctionDetail({ id }: { id: number }) {
  useWhiteMobileBackground();
  const auction = useAuction(id);
  const auth = useAuth();
  // Live: join the auction's room; events patch the cached detail, bids and comments in place.
  const { extended, live } = useLiveAuction(id);
  const a = auction.data;
  const seller = useSeller(id, !!a && !a.seller_name);
  // The end date the countdown reached; a later end (soft close) reopens the bid box.
  const [endedAt, setEndedAt] = useState<string | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  useDocumentTitle(a?.title);

  if (auction.isPending) return <LoadingScreen text={sr.detail.loading} />;
  if (auction.isError || !a) {
    if (auction.error instanceof ApiError && auction.error.status === 404) return <NotFound />;
    return (
      <div className="page">
        <p className="auction-list__error" role="alert">
          {sr.auctions.loadError}
        </p>
      </div>
    );
  }

  const ended = endedAt === a.end_date || a.status === 'ended' || !isOpen(a.end_date, now());
  const isSeller = auth.user?.id === a.seller;
  const sellerName = a.seller_name || seller.data?.first_name || '';

  return (
    <div className="page page--detail">
      <article className="detail" data-live={live ? 'on' : 'off'}>
        <div className="detail__media">
          <Slideshow title={a.title} images={a.images} />
        </div>
        <div className="detail__info">
          <p className="detail__city">
            <span className="visually-hidden">{sr.auctions.city} </span>
            {a.city}
            <span className="detail__category"> · {categoryLabel(a.category)}</span>
          </p>
          <h1 className="detail__title">{a.title}</h1>
          <div className="detail__watch">
            {!isSeller && (!ended || a.watched) && <WatchButton auctionId={a.id} watched={a.watched} variant="detail" />}
            <span className="detail__watch-count" data-testid="watch-count">
              {sr.watch.count(a.watch_count)}
            </span>
          </div>
          <div className="detail__price-box">
            <span className="detail__price-label">{sr.auctions.currentPrice}</span>
            <span className="detail__price" data-testid="current-price">
              {formatPrice(a.current_price)}
            </span>
          </div>
          <ReserveStatus auction={a} className="detail__reserve" />
          <OutcomeNote auction={a} />
          <p className="detail__countdown">
            {!ended && <span>{sr.countdown.endsIn} </span>}
            <Countdown key={a.end_date} endDate={a.end_date} variant="detail" onEnd={() => setEndedAt(a.end_date)} />
          </p>
          {extended && !ended && (
            <p className="detail__extended" role="status" data-testid="auction-extended">
              {sr.live.extended}
            </p>
          )}
          <button type="button" className="detail__bids-link" onClick={() => setHistoryOpen(true)}>
            {sr.detail.bidCount(a.bid_count)}
          </button>
          {(isSeller || (!ended && (a.viewer_blocked || a.buy_now_price !== null))) && (
            <Suspense fallback={null}>
              <DetailExtras auction={a} isSeller={isSeller} />
            </Suspense>
          )}
          {!ended && !isSeller && !a.viewer_blocked && <BidBox auctionId={a.id} currentPrice={a.current_price} />}
          {!ended && isSeller && <p className="detail__note">{sr.auctions.ownAuction}</p>}
          <dl className="detail__seller">
            <div>
              <dt>{sr.auctions.seller}</dt>
              <dd data-testid="detail-seller">
                <Link to={`/clan/${a.seller}`}>{sellerName}</Link>
                {a.seller_rating && <RatingScore score={a.seller_rating} testId="seller-score" />}
              </dd>
            </div>
            <div>
              <dt>{sr.auctions.phone}</dt>
              <dd>
                <a href={`tel:${a.phone_number.replace(/[^\d+]/g, '')}`}>{a.phone_number}</a>
              </dd>
            </div>
          </dl>
          {auth.user && !isSeller && (
            <Suspense fallback={null}>
              <ReportButton targetType="auction" targetId={a.id} />
            </Suspense>
          )}
        </div>
        <section className="detail__description">
          <h2>{sr.auctions.description}</h2>
          <p>{a.description}</p>
        </section>
      </article>
      <Comments auctionId={a.id} sellerId={a.seller} sellerRating={a.seller_rating} />
      {historyOpen && (
        <Suspense fallback={null}>
          <BidHistoryDialog auctionId={a.id} title={a.title} open onClose={() => setHistoryOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}

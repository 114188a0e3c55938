import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { isOpen } from '@shared/rules/bids';
import { formatPrice } from '../../../lib/format';
import { now } from '../../../lib/clock';
import { Countdown } from '../../../components/Countdown';
import { useAuth } from '../../auth/use-auth';
import type { AuctionCard as Card } from '@shared/schemas/auctions';
import { descriptionPreview } from './description-preview';
import { WatchButton } from './WatchButton';
import { ReserveStatus } from './SellingOptions';
import { sellingTexts } from '@shared/texts/selling';

export interface AuctionCardProps {
  auction: Card;
  /** Own lists mark ended auctions. */
  markEnded?: boolean;
  /** Shown on /moje-aukcije for auctions without bids. */
  onDelete?: (auction: Card) => void;
  /** The first cards are above the fold: load their images eagerly. */
  eager?: boolean;
  /** More buttons under the card (the seller's, issue 26). */
  actions?: (auction: Card) => ReactNode;
}

export function AuctionCard({ auction, markEnded, onDelete, eager, actions }: AuctionCardProps) {
  const [endedAt, setEndedAt] = useState<string | null>(null);
  const isEnded = auction.status === 'ended' || endedAt === auction.end_date || !isOpen(auction.end_date, now());
  const href = `/aukcija/${auction.id}`;
  const auth = useAuth();
  // Everyone but the seller may follow an auction (a visitor's click leads to /login).
  const watchable = auth.user?.id !== auction.seller && !(isEnded && !auction.watched);
  return (
    <article className={`auction-card${isEnded && markEnded ? ' auction-card--ended' : ''}`}>
      {watchable && <WatchButton auctionId={auction.id} watched={auction.watched} title={auction.title} />}
      <Link to={href} className="auction-card__media" tabIndex={-1} aria-hidden="true">
        {auction.first_image ? (
          <img
            src={auction.first_image}
            alt=""
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
            sizes="(max-width: 600px) 100vw, (max-width: 1000px) 50vw, 25vw"
            width={400}
            height={300}
          />
        ) : (
          <span className="auction-card__noimg">{sr.auctions.noImage}</span>
        )}
        {isEnded && markEnded && <span className="auction-card__badge">{sr.auctions.endedBadge}</span>}
        {!isEnded && auction.buy_now_price !== null && (
          <span className="auction-card__badge auction-card__badge--buy-now" data-testid="buy-now-badge">
            {sellingTexts.buyNowBadge}
          </span>
        )}
      </Link>
      <div className="auction-card__body">
        <h2 className="auction-card__title">
          <Link to={href}>{auction.title}</Link>
        </h2>
        <p className="auction-card__price">{formatPrice(auction.current_price)}</p>
        <ReserveStatus auction={auction} className="auction-card__reserve" />
        <p className="auction-card__desc">{descriptionPreview(auction.description)}</p>
        <div className="auction-card__meta">
          <span className="auction-card__bids">{sr.detail.bidCount(auction.bid_count)}</span>
          <Countdown endDate={auction.end_date} onEnd={() => setEndedAt(auction.end_date)} className="auction-card__countdown" />
        </div>
        {onDelete && auction.bid_count === 0 && (
          <button
            type="button"
            className="auction-card__delete"
            aria-label={sr.auctions.deleteAria(auction.title)}
            onClick={() => onDelete(auction)}
          >
            {sr.auctions.delete}
          </button>
        )}
        {actions?.(auction)}
      </div>
    </article>
  );
}

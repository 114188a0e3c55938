import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { SaleItem } from '@shared/schemas/sales';
import { ratingWindowOpen } from '@shared/rules/sales';
import { salesTexts } from '@shared/texts/sales';
import { RatingScore } from '../../../components/RatingScore';
import { RatingView } from '../../../components/RatingView';
import { now } from '../../../lib/clock';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { RatingForm } from './RatingForm';
import { ReplyForm } from './ReplyForm';
import { BlockMemberButton } from '../../blocks/BlockMember';

/** One sale: the item, the other party's contact and score, the caller's rating (or 'Oceni') and the one they got. */
export function SaleCard({ sale }: { sale: SaleItem }) {
  const [rating, setRating] = useState(false);
  const other = sale.counterpart;
  const open = ratingWindowOpen(sale.rate_until, now());
  const href = `/aukcija/${sale.auction_id}`;
  return (
    <article className="sale" data-testid={`sale-${sale.auction_id}`} aria-labelledby={`sale-title-${sale.auction_id}`}>
      <Link to={href} className="sale__media" tabIndex={-1} aria-hidden="true">
        {sale.first_image ? <img src={sale.first_image} alt="" loading="lazy" width={160} height={120} /> : null}
      </Link>
      <div className="sale__body">
        <h2 className="sale__title" id={`sale-title-${sale.auction_id}`}>
          <Link to={href}>{sale.title}</Link>
        </h2>
        <p className="sale__meta">
          {salesTexts.price}: <strong>{formatPrice(sale.price)}</strong> · {salesTexts.endedAt}: {formatDateTime(sale.ended_at)}
        </p>
        <dl className="sale__party">
          <div>
            <dt>{sale.role === 'seller' ? salesTexts.buyer : salesTexts.seller}</dt>
            <dd>
              <Link to={`/clan/${other.id}`}>{other.first_name}</Link>
              <RatingScore score={other.rating} />
            </dd>
          </div>
          {sale.role === 'seller' && <BlockMemberButton userId={other.id} name={other.first_name} blocked={other.blocked_by_viewer} className="sale__block" />}
          {other.city && (
            <div>
              <dt>{salesTexts.city}</dt>
              <dd>{other.city}</dd>
            </div>
          )}
          {other.phone_number && (
            <div>
              <dt>{salesTexts.phone}</dt>
              <dd>
                <a href={`tel:${other.phone_number.replace(/[^\d+]/g, '')}`}>{other.phone_number}</a>
              </dd>
            </div>
          )}
          <div>
            <dt>{salesTexts.email}</dt>
            <dd>
              <a href={`mailto:${other.email}`}>{other.email}</a>
            </dd>
          </div>
        </dl>
        <section className="sale__ratings">
          <h3 className="sale__subtitle">{salesTexts.myRating}</h3>
          {sale.my_rating ? (
            <RatingView rating={sale.my_rating} />
          ) : !open ? (
            <p className="sale__note">{salesTexts.windowClosed}</p>
          ) : rating ? (
            <RatingForm auctionId={sale.auction_id} title={sale.title} onClose={() => setRating(false)} />
          ) : (
            <div className="sale__rate">
              <p className="sale__note">
                {salesTexts.notRatedYet} {salesTexts.rateUntil(formatDateTime(sale.rate_until))}
              </p>
              <button type="button" className="btn btn--brand btn--sm" onClick={() => setRating(true)}>
                {salesTexts.rate}
              </button>
            </div>
          )}
          <h3 className="sale__subtitle">{salesTexts.theirRating}</h3>
          {sale.their_rating ? (
            <RatingView rating={sale.their_rating}>{!sale.their_rating.reply && <ReplyForm ratingId={sale.their_rating.id} />}</RatingView>
          ) : (
            <p className="sale__note">{salesTexts.notRatedByThem}</p>
          )}
        </section>
      </div>
    </article>
  );
}

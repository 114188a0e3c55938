import type { ReactNode } from 'react';
import type { Rating } from '@shared/schemas/sales';
import { salesTexts } from '@shared/texts/sales';
import { formatDateTime } from '../lib/format';
import './ratings.css';

export interface RatingViewProps {
  rating: Rating;
  /** What stands before the value (who rated, in which sale). */
  meta?: ReactNode;
  /** Below the answer (e.g. the form to answer). */
  children?: ReactNode;
}

/** One rating: positive or negative, its comment and date, and the rated member's answer. Text only, never HTML. */
export function RatingView({ rating, meta, children }: RatingViewProps) {
  const positive = rating.value === 'positive';
  return (
    <div className="rating" data-testid={`rating-${rating.id}`}>
      <div className="rating__head">
        {meta}
        <span className={`rating__value rating__value--${rating.value}`}>{positive ? salesTexts.positive : salesTexts.negative}</span>
        <time className="rating__time" dateTime={rating.created_at}>
          {formatDateTime(rating.created_at)}
        </time>
      </div>
      {rating.comment && <p className="rating__comment">{rating.comment}</p>}
      {rating.reply && (
        <div className="rating__reply">
          <span className="rating__reply-label">{salesTexts.replyFrom}:</span> <span className="rating__reply-text">{rating.reply.content}</span>
        </div>
      )}
      {children}
    </div>
  );
}

export default RatingView;

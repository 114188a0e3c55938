import type { RatingScore as Score } from '@shared/schemas/auctions';
import { ratingScoreTexts } from '@shared/texts/rating-score';
import './ratings.css';

export interface RatingScoreProps {
  score: Score;
  className?: string;
  testId?: string;
}

/** A member's score beside their name: '+12 / −1' (positive and negative ratings), spelled out for screen readers. */
export function RatingScore({ score, className, testId }: RatingScoreProps) {
  const label = ratingScoreTexts.score(score.positive, score.negative);
  return (
    <span className={`rating-score${className ? ` ${className}` : ''}`} title={label} data-testid={testId}>
      <span className="visually-hidden">{label}</span>
      <span aria-hidden="true">
        <span className="rating-score__pos">+{score.positive}</span> / <span className="rating-score__neg">−{score.negative}</span>
      </span>
    </span>
  );
}

export default RatingScore;

import { useId, useState, type FormEvent } from 'react';
import { NEGATIVE_COMMENT_MIN, RATING_COMMENT_MAX, type RatingValue } from '@shared/rules/sales';
import { salesTexts } from '@shared/texts/sales';
import { sr } from '@shared/texts/sr';
import { TextAreaField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api';
import { useRateSale } from '../api/sales';

/** The client's check, for comfort only (the server checks again): the message for the comment, or null. */
export function ratingCommentProblem(value: RatingValue, comment: string): string | null {
  const c = comment.trim();
  if (c.length > RATING_COMMENT_MAX) return salesTexts.commentTooLong;
  if (value === 'negative' && c.length < NEGATIVE_COMMENT_MIN) return salesTexts.negativeNeedsReason;
  return null;
}

export interface RatingFormProps {
  auctionId: number;
  title: string;
  onClose: () => void;
}

/** 'Oceni': positive or negative and a comment (needed for a negative one); final once sent. */
export function RatingForm({ auctionId, title, onClose }: RatingFormProps) {
  const rate = useRateSale(auctionId);
  const [value, setValue] = useState<RatingValue>('positive');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const legendId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = ratingCommentProblem(value, comment);
    setError(problem);
    setFailure(null);
    if (problem) return;
    rate.mutate(
      { value, comment: comment.trim() },
      {
        onSuccess: onClose,
        onError: (err) => {
          const field = err instanceof ApiError ? (err.field('comment') ?? err.field('value')) : undefined;
          if (field) setError(field);
          else setFailure(err instanceof ApiError ? err.message : salesTexts.failed);
        },
      },
    );
  };

  return (
    <form className="rating-form" onSubmit={submit} noValidate aria-label={salesTexts.rateTitle(title)}>
      <fieldset className="rating-form__choice" aria-describedby={legendId}>
        <legend>{salesTexts.ratingLegend}</legend>
        {(['positive', 'negative'] as const).map((v) => (
          <label key={v} className={`rating-form__option rating-form__option--${v}`}>
            <input type="radio" name={`rating-${auctionId}`} value={v} checked={value === v} onChange={() => setValue(v)} />
            {v === 'positive' ? salesTexts.positive : salesTexts.negative}
          </label>
        ))}
      </fieldset>
      <TextAreaField
        label={salesTexts.commentLabel}
        rows={3}
        value={comment}
        error={error}
        hint={salesTexts.commentHint}
        onChange={(e) => {
          setComment(e.target.value);
          if (error) setError(null);
        }}
      />
      <p id={legendId} className="field__hint">
        {salesTexts.ratingFinal}
      </p>
      {failure && (
        <p className="alert alert--error" role="alert">
          {failure}
        </p>
      )}
      <div className="rating-form__actions">
        <button type="submit" className="btn btn--brand" disabled={rate.isPending}>
          {salesTexts.submitRating}
        </button>
        <button type="button" className="btn btn--ghost" onClick={onClose} disabled={rate.isPending}>
          {sr.common.cancel}
        </button>
      </div>
    </form>
  );
}

import { useState, type FormEvent } from 'react';
import { REPLY_MAX } from '@shared/rules/sales';
import { salesTexts } from '@shared/texts/sales';
import { sr } from '@shared/texts/sr';
import { TextAreaField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api';
import { useReplyToRating } from '../api/sales';

/** 'Odgovori': the rated member's one answer to a rating (1–300 characters). */
export function ReplyForm({ ratingId }: { ratingId: number }) {
  const [open, setOpen] = useState(false);
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reply = useReplyToRating(ratingId);

  if (!open) {
    return (
      <button type="button" className="btn btn--secondary btn--sm rating__reply-btn" onClick={() => setOpen(true)}>
        {salesTexts.reply}
      </button>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const text = content.trim();
    const problem = !text ? salesTexts.replyRequired : text.length > REPLY_MAX ? salesTexts.replyTooLong : null;
    setError(problem);
    if (problem) return;
    reply.mutate(text, {
      onSuccess: () => setOpen(false),
      onError: (err) => setError(err instanceof ApiError ? (err.field('content') ?? err.message) : salesTexts.failed),
    });
  };

  return (
    <form className="rating-form" onSubmit={submit} noValidate>
      <TextAreaField
        label={salesTexts.replyLabel}
        rows={2}
        value={content}
        error={error}
        onChange={(e) => {
          setContent(e.target.value);
          if (error) setError(null);
        }}
      />
      <div className="rating-form__actions">
        <button type="submit" className="btn btn--brand btn--sm" disabled={reply.isPending}>
          {salesTexts.submitReply}
        </button>
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => setOpen(false)} disabled={reply.isPending}>
          {sr.common.cancel}
        </button>
      </div>
    </form>
  );
}

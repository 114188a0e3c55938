import { Suspense, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { COMMENT_MAX } from '@shared/rules/limits';
import { ApiError, isNotAuthenticated } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { RatingScore } from '../../../components/RatingScore';
import type { RatingScore as Score } from '@shared/schemas/auctions';
import { useAuth } from '../../auth/use-auth';
import { ReportButton } from '../../reports';
import { useComments, useCreateComment, useDeleteComment } from '../api/comments';
import { checkComment } from './comment-validation';

export interface CommentsProps {
  auctionId: number;
  sellerId: number;
  /** The seller's score, shown beside their name (issue 23); absent from a detail cached before it existed. */
  sellerRating?: Score;
}

/** Comment section: newest first, '(Prodavac)' label, delete for the author or the seller, the form. */
export function Comments({ auctionId, sellerId, sellerRating }: CommentsProps) {
  const auth = useAuth();
  const navigate = useNavigate();
  const comments = useComments(auctionId);
  const create = useCreateComment(auctionId);
  const remove = useDeleteComment(auctionId);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const fieldId = useId();
  const errorId = useId();
  const headingId = useId();
  const userId = auth.user?.id;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const problem = checkComment(text);
    if (problem) {
      setError(problem);
      return;
    }
    if (auth.status === 'anonymous') {
      navigate('/login');
      return;
    }
    setError(null);
    create.mutate(text.trim(), {
      onSuccess: () => setText(''),
      onError: (err) => {
        // A session that ended under a logged-in page is taken to /login (with its message) by the app's
        // SessionEndWatcher; one the page never knew of (still loading) goes there from here.
        if (isNotAuthenticated(err) && auth.status === 'authenticated') return;
        if (err instanceof ApiError && err.status === 403) navigate('/login');
        else setError(err instanceof ApiError ? (err.field('content') ?? err.message) : sr.auctions.loadError);
      },
    });
  };

  return (
    <section className="comments" aria-labelledby={headingId}>
      <h2 id={headingId} className="comments__title">
        {sr.auctions.commentsTitle}
      </h2>

      <form className="comments__form" onSubmit={submit} noValidate>
        <label htmlFor={fieldId} className="field__label">
          {sr.auctions.commentLabel}
        </label>
        <textarea
          id={fieldId}
          className="field__input comments__input"
          rows={3}
          placeholder={sr.auctions.commentPlaceholder}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(null);
          }}
        />
        <div className="comments__form-row">
          <span className={`comments__counter${text.trim().length > COMMENT_MAX ? ' comments__counter--over' : ''}`} aria-hidden="true">
            {text.trim().length}/{COMMENT_MAX}
          </span>
          <button type="submit" className="btn btn--brand" disabled={create.isPending}>
            {sr.auctions.commentSubmit}
          </button>
        </div>
        {error && (
          <p id={errorId} className="field__error" role="alert">
            {error}
          </p>
        )}
      </form>

      {deleteError && (
        <p className="alert alert--error" role="alert">
          {deleteError}
        </p>
      )}

      {comments.isPending ? (
        <p className="comments__status">{sr.comments.loading}</p>
      ) : !comments.data ? (
        <p className="comments__status">{sr.auctions.loadError}</p>
      ) : comments.data.length === 0 ? (
        <p className="comments__status">{sr.comments.empty}</p>
      ) : (
        <ul className="comments__list">
          {comments.data.map((c) => {
            const isSellerComment = c.is_seller || c.userId === sellerId;
            const canDelete = userId !== undefined && (userId === c.userId || userId === sellerId);
            return (
              <li key={c.id} className="comment">
                <div className="comment__head">
                  <strong className="comment__user">
                    <Link to={`/clan/${c.userId}`}>{c.user}</Link>
                  </strong>
                  {isSellerComment && sellerRating && <RatingScore score={sellerRating} />}
                  {isSellerComment && <span className="comment__seller">{sr.comments.seller}</span>}
                  <time className="comment__time" dateTime={c.created_at}>
                    {formatDateTime(c.created_at)}
                  </time>
                </div>
                <p className="comment__content">{c.content}</p>
                {userId !== undefined && userId !== c.userId && (
                  <Suspense fallback={null}>
                    <ReportButton targetType="comment" targetId={c.id} what={c.user} />
                  </Suspense>
                )}
                {canDelete && (
                  <button
                    type="button"
                    className="comment__delete"
                    disabled={remove.isPending && remove.variables === c.id}
                    onClick={() => {
                      setDeleteError(null);
                      remove.mutate(c.id, {
                        onError: (err) => setDeleteError(err instanceof ApiError ? err.message : sr.auctions.loadError),
                      });
                    }}
                  >
                    {sr.auctions.commentDelete}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

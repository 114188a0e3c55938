import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { minNextBid } from '@shared/rules/bids';
import { ApiError, isNotAuthenticated, NetworkError } from '../../../lib/api';
import { formatNumber, formatPrice } from '../../../lib/format';
import { useAuth } from '../../auth/use-auth';
import { useAutoBid, useSetAutoBid } from '../api/auto-bid';
import { checkMaxAmount } from './bid-validation';
import { ConfirmAmountDialog } from './ConfirmAmountDialog';

export interface AutoBidBoxProps {
  auctionId: number;
  currentPrice: number;
}

/** The server's words for a refused maximum: the field error, else its `detail`. */
export function autoBidErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    const detail = typeof err.body.detail === 'string' && err.status < 500 ? err.body.detail : undefined;
    return err.field('max_amount') ?? detail ?? sr.autoBid.error;
  }
  if (err instanceof NetworkError) return sr.detail.bidNoResponse;
  return sr.autoBid.error;
}

/**
 * "Automatska ponuda": a hidden maximum the server bids up to, 10 din at a time. The leader who holds one sees
 * it ('Vodite. Vaša maksimalna ponuda: …'); a maximum beaten at once is said so, never shown as success.
 */
export function AutoBidBox({ auctionId, currentPrice }: AutoBidBoxProps) {
  const auth = useAuth();
  const navigate = useNavigate();
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const loggedIn = auth.status === 'authenticated';
  const state = useAutoBid(auctionId, loggedIn);
  const setMax = useSetAutoBid(auctionId);
  const [raw, setRaw] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<number | null>(null);
  const active = loggedIn ? (state.data?.max_amount ?? null) : null;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!loggedIn) {
      if (auth.status === 'anonymous') navigate('/login');
      return;
    }
    const checked = checkMaxAmount(raw, currentPrice, active);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setError(null);
    setPending(checked.amount);
  };

  const confirm = () => {
    if (pending === null) return;
    setMax.mutate(pending, {
      onSuccess: (res) => {
        setPending(null);
        setRaw('');
        if (!res.leading) setError(sr.autoBid.outbidAtOnce(formatPrice(res.current_price)));
      },
      onError: (err) => {
        setPending(null);
        if (err instanceof ApiError && err.status === 403) {
          if (!isNotAuthenticated(err)) navigate('/login');
          return;
        }
        setError(autoBidErrorMessage(err));
      },
    });
  };

  return (
    <section className="auto-bid" aria-labelledby={`${inputId}-title`}>
      <h2 className="auto-bid__title" id={`${inputId}-title`}>
        {sr.autoBid.title}
      </h2>
      <p className="auto-bid__hint" id={hintId}>
        {sr.autoBid.explain}
      </p>
      {active !== null && (
        <p className="auto-bid__leading" role="status" data-testid="auto-bid-leading">
          {sr.autoBid.leading(formatNumber(active))}
        </p>
      )}
      <form className="bid-box__form" onSubmit={submit} noValidate>
        <label htmlFor={inputId} className="bid-box__label">
          {sr.autoBid.maxLabel}
        </label>
        <div className="bid-box__row">
          <input
            id={inputId}
            className="field__input bid-box__input"
            type="number"
            inputMode="numeric"
            min={active ?? minNextBid(currentPrice)}
            step={1}
            placeholder={String(active ?? minNextBid(currentPrice))}
            value={raw}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            onChange={(e) => {
              setRaw(e.target.value);
              if (error) setError(null);
            }}
          />
          <button type="submit" className="btn btn--secondary bid-box__submit" disabled={setMax.isPending}>
            {active === null ? sr.autoBid.set : sr.autoBid.raise}
          </button>
        </div>
        {error && (
          <p id={errorId} className="field__error bid-box__error" role="alert">
            {error}
          </p>
        )}
      </form>
      <ConfirmAmountDialog
        open={pending !== null}
        title={sr.autoBid.confirmTitle}
        busy={setMax.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      >
        {pending !== null ? sr.autoBid.confirmText(pending) : ''}
      </ConfirmAmountDialog>
    </section>
  );
}

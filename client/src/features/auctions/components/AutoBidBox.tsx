import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { minNextBid } from '@shared/rules/bids';
import { ApiError, isNotAuthenticated, NetworkError } from '../../../lib/api';
import { formatNumber, formatPrice } from '../../../lib/format';
import { useAuth } from '../../auth/use-auth';
import { useAutoBid, useSetAutoBid } from '../api/auto-bid';
import { checkMaxAmount } from './bid-validation';
import { AmountForm } from './AmountForm';
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
  const titleId = useId();
  const hintId = useId();
  const loggedIn = auth.status === 'authenticated';
  const state = useAutoBid(auctionId, loggedIn);
  const setMax = useSetAutoBid(auctionId);
  const [raw, setRaw] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<number | null>(null);
  const active = loggedIn ? (state.data?.max_amount ?? null) : null;

  const submit = () => {
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
    <section className="auto-bid" aria-labelledby={titleId}>
      <h2 className="auto-bid__title" id={titleId}>
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
      <AmountForm
        label={sr.autoBid.maxLabel}
        submitLabel={active === null ? sr.autoBid.set : sr.autoBid.raise}
        submitClass="btn--secondary"
        value={raw}
        onValueChange={(v) => {
          setRaw(v);
          if (error) setError(null);
        }}
        min={active ?? minNextBid(currentPrice)}
        error={error}
        hintId={hintId}
        busy={setMax.isPending}
        onSubmit={submit}
      />
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

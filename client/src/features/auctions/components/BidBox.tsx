import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { minNextBid } from '@shared/rules/bids';
import { Dialog } from '../../../components/Dialog';
import { ApiError, isNotAuthenticated, NetworkError } from '../../../lib/api';
import { formatPrice } from '../../../lib/format';
import { useAuth } from '../../auth/use-auth';
import { usePlaceBid } from '../api/bids';
import { checkBidAmount } from './bid-validation';
import { AmountForm } from './AmountForm';
import { AutoBidBox } from './AutoBidBox';
import { ConfirmAmountDialog } from './ConfirmAmountDialog';

export interface BidBoxProps {
  auctionId: number;
  currentPrice: number;
}

const SUCCESS_MS = 4000;

/** The message of spec §8 for a failed bid (403 is handled by going to /login). */
export function bidErrorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.field('amount') ?? sr.detail.bidGenericError;
  if (err instanceof NetworkError) return sr.detail.bidNoResponse;
  return sr.detail.bidClientError;
}

async function celebrate(): Promise<void> {
  if (typeof window === 'undefined' || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
  try {
    const { default: confetti } = await import('canvas-confetti');
    void confetti({ particleCount: 140, spread: 75, origin: { y: 0.6 }, disableForReducedMotion: true, zIndex: 2000 });
  } catch {
    // No canvas (old browser): the dialog alone tells the user.
  }
}

/** Amount input + 'Licitiraj' → check → 'Potvrdi licitaciju' → post → success only after the server accepted. */
export function BidBox({ auctionId, currentPrice }: BidBoxProps) {
  const auth = useAuth();
  const navigate = useNavigate();
  const [raw, setRaw] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<number | null>(null);
  const [success, setSuccess] = useState(false);
  /** A bid accepted but answered at once by another bidder's maximum. */
  const [outbid, setOutbid] = useState<string | null>(null);
  const place = usePlaceBid(auctionId);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const submit = () => {
    if (auth.status !== 'authenticated') {
      if (auth.status === 'anonymous') navigate('/login');
      return;
    }
    const checked = checkBidAmount(raw, currentPrice);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setError(null);
    setOutbid(null);
    setPending(checked.amount);
  };

  const confirm = () => {
    if (pending === null) return;
    const amount = pending;
    place.mutate(amount, {
      onSuccess: (placed) => {
        setPending(null);
        setRaw('');
        // Answered at once by another bidder's maximum: accepted, but not leading. Not a success.
        if (!placed.leading) {
          setOutbid(sr.autoBid.manualOutbid(formatPrice(placed.current_price)));
          return;
        }
        setSuccess(true);
        void celebrate();
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => setSuccess(false), SUCCESS_MS);
      },
      onError: (err) => {
        setPending(null);
        if (err instanceof ApiError && err.status === 403) {
          // A session that ended is taken to /login (with its message) by the app's SessionEndWatcher.
          if (!isNotAuthenticated(err)) navigate('/login');
          return;
        }
        setError(bidErrorMessage(err));
      },
    });
  };

  return (
    <div className="bid-box">
      <AmountForm
        label={sr.auctions.yourBid}
        submitLabel={sr.detail.placeBid}
        submitClass="btn--primary"
        value={raw}
        onValueChange={(v) => {
          setRaw(v);
          if (error) setError(null);
          if (outbid) setOutbid(null);
        }}
        min={minNextBid(currentPrice)}
        error={error}
        busy={place.isPending}
        onSubmit={submit}
      >
        {outbid && (
          <p className="bid-box__outbid" role="alert" data-testid="bid-outbid">
            {outbid}
          </p>
        )}
      </AmountForm>

      <ConfirmAmountDialog
        open={pending !== null}
        title={sr.detail.confirmBidTitle}
        busy={place.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      >
        {pending !== null ? sr.detail.confirmBidText(pending) : ''}
      </ConfirmAmountDialog>

      <Dialog
        open={success}
        title={sr.common.congrats}
        onClose={() => setSuccess(false)}
        className="dialog--success"
        actions={
          <button type="button" className="btn btn--brand" onClick={() => setSuccess(false)}>
            {sr.common.close}
          </button>
        }
      >
        <p>{sr.detail.bidSuccess}</p>
      </Dialog>
      <AutoBidBox auctionId={auctionId} currentPrice={currentPrice} />
    </div>
  );
}

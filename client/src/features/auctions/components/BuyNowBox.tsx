import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { sellingTexts } from '@shared/texts/selling';
import { blockTexts } from '@shared/texts/blocks';
import { Dialog } from '../../../components/Dialog';
import { ApiError, NetworkError } from '../../../lib/api';
import { formatNumber } from '../../../lib/format';
import { useAuth } from '../../auth/use-auth';
import { useBuyNow } from '../api/buy-now';

export interface BuyNowBoxProps {
  auctionId: number;
  price: number;
}

function buyNowError(err: unknown): string {
  if (err instanceof ApiError) return typeof err.body.detail === 'string' ? err.body.detail : sellingTexts.buyNowUnavailable;
  if (err instanceof NetworkError) return sr.detail.bidNoResponse;
  return sr.detail.bidClientError;
}

/**
 * 'Kupi odmah za {price} RSD' (issue 25): a confirmation ('Da' / 'Ne'), then POST buy-now. A visitor goes to
 * /login. A refusal (a bid came first, it has ended) is shown under the button; the live events update the page.
 */
export function BuyNowBox({ auctionId, price }: BuyNowBoxProps) {
  const auth = useAuth();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const buy = useBuyNow(auctionId);
  const shown = formatNumber(price);

  const open = () => {
    if (auth.status === 'anonymous') {
      navigate('/login');
      return;
    }
    setError(null);
    setAsking(true);
  };

  const confirm = () => {
    buy.mutate(undefined, {
      onSuccess: () => setAsking(false),
      onError: (err) => {
        setAsking(false);
        if (err instanceof ApiError && err.status === 403) navigate('/login');
        else setError(buyNowError(err));
      },
    });
  };

  return (
    <div className="buy-now">
      <button type="button" className="btn btn--brand btn--block buy-now__button" onClick={open} disabled={buy.isPending || auth.status === 'loading'}>
        {sellingTexts.buyNowFor(shown)}
      </button>
      {error && (
        <p className="buy-now__error" role="alert">
          {error}
        </p>
      )}
      <Dialog
        open={asking}
        title={sellingTexts.buyNowBadge}
        role="alertdialog"
        onClose={() => {
          if (!buy.isPending) setAsking(false);
        }}
        actions={
          <>
            <button type="button" className="btn btn--secondary" onClick={() => setAsking(false)} disabled={buy.isPending}>
              {sr.common.no}
            </button>
            <button type="button" className="btn btn--primary" onClick={confirm} disabled={buy.isPending}>
              {sr.common.yes}
            </button>
          </>
        }
      >
        <p>{sellingTexts.buyNowConfirm(shown)}</p>
      </Dialog>
    </div>
  );
}

export interface BidExtrasProps {
  auctionId: number;
  price: number | null;
  /** The seller blocked the viewer (the detail's `viewer_blocked`, issue 24). */
  blocked: boolean;
}

/**
 * What the detail loads lazily next to the bid box (one chunk: the page is at its first-load budget): for a member
 * the seller blocked (issue 24), the sentence that replaces the bid box; otherwise 'Kupi odmah' when offered.
 */
export function BidExtras({ auctionId, price, blocked }: BidExtrasProps) {
  if (blocked) {
    return (
      <p className="detail__note" role="status" data-testid="blocked-by-seller">
        {blockTexts.blockedBySeller}
      </p>
    );
  }
  return price === null ? null : <BuyNowBox auctionId={auctionId} price={price} />;
}

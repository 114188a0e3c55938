/**
 * The seller's tools on their own auction (issue 26), loaded lazily by the detail page and /moje-aukcije so
 * neither first load carries them. The chunk shares no module with another lazy chunk but the Dialog (already a
 * dependency of the detail), so the detail page's first load grows by one file name (its 130 KiB budget): 'Izmeni' while it is open without bids, 'Ponovo postavi' (a small dialog with
 * the duration and the price) once it ended unsold, and a link to the relisted auction after that.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { AuctionCard } from '@shared/schemas/auctions';
import { sellerToolTexts as t } from '@shared/texts/seller-tools';
import { isEditable, relistRefusal } from '@shared/rules/auction-edits';
import { AUCTION_DURATIONS, DEFAULT_AUCTION_DURATION } from '@shared/rules/limits';
import { Dialog } from '../../../components/Dialog';
import { ApiError } from '../../../lib/api';
import { now } from '../../../lib/clock';
import { useRelistAuction } from '../api/relist-auction';

type Seen = Pick<AuctionCard, 'id' | 'status' | 'end_date' | 'bid_count' | 'outcome' | 'relisted_as' | 'current_price'> & { starting_price?: number; relist_count?: number };

export default function SellerTools({ auction }: { auction: Seen }) {
  const [open, setOpen] = useState(false);
  if (auction.relisted_as !== null) {
    return (
      <Link className="seller-tools__link" to={`/aukcija/${auction.relisted_as}`}>
        {t.relistedAs}
      </Link>
    );
  }
  if (isEditable(auction, now())) {
    return (
      <Link className="btn btn--secondary seller-tools__edit" to={`/nova-aukcija?izmena=${auction.id}`}>
        {t.edit}
      </Link>
    );
  }
  if (relistRefusal({ ...auction, relist_count: auction.relist_count ?? 0 }) === 'not_relistable') return null;
  return (
    <>
      <button type="button" className="btn btn--brand seller-tools__relist" onClick={() => setOpen(true)}>
        {t.relist}
      </button>
      {open && <RelistDialog auction={auction} onClose={() => setOpen(false)} />}
    </>
  );
}

function RelistDialog({ auction, onClose }: { auction: Seen; onClose: () => void }) {
  const navigate = useNavigate();
  const relist = useRelistAuction(auction.id);
  const [duration, setDuration] = useState(String(DEFAULT_AUCTION_DURATION));
  const [price, setPrice] = useState(String(auction.starting_price ?? auction.current_price));
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    relist.mutate(
      { auction_duration: Number(duration), current_price: Number(price) },
      {
        onSuccess: (created) => navigate(`/aukcija/${created.id}`),
        onError: (err) => setError(err instanceof ApiError && typeof err.body.detail === 'string' ? err.body.detail : t.relistFailed),
      },
    );
  };
  return (
    <Dialog
      open
      title={t.relistTitle}
      onClose={() => !relist.isPending && onClose()}
      actions={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose} disabled={relist.isPending}>
            {t.relistCancel}
          </button>
          <button type="submit" form={`relist-${auction.id}`} className="btn btn--primary" disabled={relist.isPending}>
            {t.relistSubmit}
          </button>
        </>
      }
    >
      <form id={`relist-${auction.id}`} className="form" onSubmit={submit} noValidate>
        <label className="field">
          <span className="field__label">{t.relistDuration}</span>
          <select className="field__input" value={duration} onChange={(e) => setDuration(e.target.value)}>
            {AUCTION_DURATIONS.map((d) => (
              <option key={d} value={d}>
                {t.days(d)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field__label">{t.relistPrice}</span>
          <input className="field__input" type="number" inputMode="numeric" step={1} value={price} onChange={(e) => setPrice(e.target.value)} />
        </label>
        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}

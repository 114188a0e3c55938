import { sr } from '@shared/texts/sr';
import { Dialog } from '../../../components/Dialog';
import { Spinner } from '../../../components/Spinner';
import { formatDateTime, formatDin } from '../../../lib/format';
import { useBids } from '../api/bids';

export interface BidHistoryDialogProps {
  auctionId: number;
  title: string;
  open: boolean;
  onClose: () => void;
}

/** 'Ponude za {title}': bidder name (rows of a maximum marked 'automatska'), amount in 'Din.', time dd.mm.yyyy hh:mm:ss. */
export function BidHistoryDialog({ auctionId, title, open, onClose }: BidHistoryDialogProps) {
  const bids = useBids(auctionId, open);
  return (
    <Dialog
      open={open}
      title={sr.detail.bidsFor(title)}
      onClose={onClose}
      className="bid-history"
      actions={
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          {sr.common.close}
        </button>
      }
    >
      {bids.isPending ? (
        <p className="bid-history__loading">
          <Spinner size="sm" /> {sr.auctions.bidsLoading}
        </p>
      ) : bids.isError ? (
        <p className="alert alert--error">{sr.auctions.loadError}</p>
      ) : bids.data.length === 0 ? (
        <p>{sr.auctions.noBids}</p>
      ) : (
        <ol className="bid-history__list">
          {bids.data.map((b) => (
            <li key={b.id} className="bid-history__item">
              <span className="bid-history__name">
                {b.bidder_name}
                {b.auto && (
                  <span className="bid-history__auto" title={sr.autoBid.historyBadgeLabel}>
                    {sr.autoBid.historyBadge}
                  </span>
                )}
              </span>
              <span className="bid-history__amount">{formatDin(b.amount)}</span>
              <time className="bid-history__time" dateTime={b.created_at}>
                {formatDateTime(b.created_at)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  );
}

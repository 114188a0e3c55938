import { sr } from '@shared/texts/sr';
import { Dialog } from '../../../components/Dialog';

export interface DeleteAuctionDialogProps {
  open: boolean;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** 'Obriši aukciju' / 'Da li ste sigurni da želite da obrišete ovu aukciju?' */
export function DeleteAuctionDialog({ open, busy, error, onConfirm, onClose }: DeleteAuctionDialogProps) {
  return (
    <Dialog
      open={open}
      title={sr.deleteAuction.title}
      role="alertdialog"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose} disabled={busy}>
            {sr.common.no}
          </button>
          <button type="button" className="btn btn--danger" onClick={onConfirm} disabled={busy}>
            {busy ? sr.auctions.deleting : sr.common.yes}
          </button>
        </>
      }
    >
      <p>{sr.deleteAuction.question}</p>
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}

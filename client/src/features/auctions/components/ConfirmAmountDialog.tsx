import type { ReactNode } from 'react';
import { sr } from '@shared/texts/sr';
import { Dialog } from '../../../components/Dialog';

export interface ConfirmAmountDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** 'Otkaži' / 'Da' before money is promised (a bid, a maximum); not closable while the request runs. */
export function ConfirmAmountDialog({ open, title, children, busy, onConfirm, onCancel }: ConfirmAmountDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      role="alertdialog"
      onClose={() => {
        if (!busy) onCancel();
      }}
      actions={
        <>
          <button type="button" className="btn btn--secondary" onClick={onCancel} disabled={busy}>
            {sr.common.cancel}
          </button>
          <button type="button" className="btn btn--primary" onClick={onConfirm} disabled={busy}>
            {sr.common.yes}
          </button>
        </>
      }
    >
      <p>{children}</p>
    </Dialog>
  );
}

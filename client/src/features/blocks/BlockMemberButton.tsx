import { useState } from 'react';
import { sr } from '@shared/texts/sr';
import { blockTexts } from '@shared/texts/blocks';
import { Dialog } from '../../components/Dialog';
import { ApiError } from '../../lib/api';
import { useBlockMember } from './api/blocked-members';
import './blocks.css';

/** The message of a refused block or unblock (the server's, under `user_id`), or a generic one. */
export function blockErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 400) return err.field('user_id') ?? err.message;
  return blockTexts.failed;
}

export interface BlockMemberButtonProps {
  userId: number;
  name: string;
  className?: string;
}

/**
 * 'Blokiraj člana' (issue 24): a confirmation ('Da' / 'Ne'), then POST /api/blocked-members/. Once blocked it
 * says so and offers 'Odblokiraj'. Shown only to a logged-in member looking at someone else.
 */
export function BlockMemberButton({ userId, name, className }: BlockMemberButtonProps) {
  const [asking, setAsking] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const block = useBlockMember(true);
  const unblock = useBlockMember(false);
  const busy = block.isPending || unblock.isPending;

  const confirm = () => {
    setError(null);
    block.mutate(userId, {
      onSuccess: () => {
        setAsking(false);
        setBlocked(true);
      },
      onError: (err) => {
        setAsking(false);
        setError(blockErrorMessage(err));
      },
    });
  };

  const undo = () => {
    setError(null);
    unblock.mutate(userId, { onSuccess: () => setBlocked(false), onError: (err) => setError(blockErrorMessage(err)) });
  };

  return (
    <div className={`block-member ${className ?? ''}`} data-testid={`block-member-${userId}`}>
      {blocked ? (
        <p className="block-member__done" role="status">
          {blockTexts.blockedNow}{' '}
          <button type="button" className="btn btn--secondary btn--sm" onClick={undo} disabled={busy}>
            {blockTexts.unblock}
          </button>
        </p>
      ) : (
        <button type="button" className="btn btn--secondary btn--sm" onClick={() => setAsking(true)} disabled={busy}>
          {blockTexts.block}
        </button>
      )}
      {error && (
        <p className="block-member__error" role="alert">
          {error}
        </p>
      )}
      <Dialog
        open={asking}
        title={blockTexts.block}
        role="alertdialog"
        onClose={() => {
          if (!busy) setAsking(false);
        }}
        actions={
          <>
            <button type="button" className="btn btn--secondary" onClick={() => setAsking(false)} disabled={busy}>
              {sr.common.no}
            </button>
            <button type="button" className="btn btn--primary" onClick={confirm} disabled={busy}>
              {sr.common.yes}
            </button>
          </>
        }
      >
        <p>{blockTexts.confirmBlock(name)}</p>
      </Dialog>
    </div>
  );
}

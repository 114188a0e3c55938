/**
 * The member block list's UI ("crna lista", issue 24), one module so that it is one chunk (every file name a page
 * may load is listed in the entry chunk, which is at its first-load budget): 'Blokiraj člana' (/clan/{id},
 * /moje-prodaje) and the profile's list.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { blockUiTexts as blockTexts } from '@shared/texts/blocks-ui';
import { Dialog } from '../../components/Dialog';
import { Pagination } from '../../components/Pagination';
import { ApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useBlockedMembers, useBlockMember } from './api/blocked-members';
import './blocks.css';

/** The message of a refused block or unblock (the server's, under `user_id`), or a generic one. */
export function blockErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 400) return err.field('user_id') ?? err.message;
  return blockTexts.failed;
}

export interface BlockMemberButtonProps {
  userId: number;
  name: string;
  /** What the server says now (`blocked_by_viewer`): a member already blocked is offered 'Odblokiraj'. */
  blocked: boolean;
  className?: string;
}

/**
 * 'Blokiraj člana' (issue 24): a confirmation ('Da' / 'Ne'), then POST /api/blocked-members/. Once blocked it
 * says so and offers 'Odblokiraj'. Shown only to a logged-in member looking at someone else.
 */
export function BlockMemberButton({ userId, name, blocked: blockedBefore, className }: BlockMemberButtonProps) {
  const [asking, setAsking] = useState(false);
  const [blocked, setBlocked] = useState(blockedBefore);
  // Whatever the server says after a reread (this page's block, or one from another tab) wins.
  const [seen, setSeen] = useState(blockedBefore);
  if (seen !== blockedBefore) {
    setSeen(blockedBefore);
    setBlocked(blockedBefore);
  }
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

/** The profile page's 'Blokirani članovi' (issue 24): the caller's block list, newest first, each with 'Odblokiraj'. */
export function BlockedMembersList() {
  const [page, setPage] = useState(1);
  const list = useBlockedMembers(page);
  const unblock = useBlockMember(false);
  const [error, setError] = useState<string | null>(null);
  const data = list.data;
  // The last one of a later page unblocked: back one page.
  if (data && data.results.length === 0 && page > 1) setPage(page - 1);

  const undo = (id: number) => {
    setError(null);
    unblock.mutate(id, { onError: (err) => setError(blockErrorMessage(err)) });
  };

  return (
    <section className="blocked-list" aria-labelledby="blocked-list-title" data-testid="blocked-list">
      <h2 id="blocked-list-title">{blockTexts.listTitle}</h2>
      {list.isPending ? (
        <p className="blocked-list__status">{sr.common.loading}</p>
      ) : !data ? (
        <p className="alert alert--error">{blockTexts.loadError}</p>
      ) : data.results.length === 0 ? (
        <p className="blocked-list__status">{blockTexts.listEmpty}</p>
      ) : (
        <ul className="blocked-list__items">
          {data.results.map((m) => (
            <li key={m.id} className="blocked-list__item" data-testid={`blocked-${m.id}`}>
              <span>
                <Link to={`/clan/${m.id}`}>{m.first_name}</Link>{' '}
                <span className="blocked-list__meta">
                  · {blockTexts.blockedAt} {formatDateTime(m.blocked_at)}
                </span>
              </span>
              <button type="button" className="btn btn--secondary btn--sm" onClick={() => undo(m.id)} disabled={unblock.isPending}>
                {blockTexts.unblock}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="blocked-list__error" role="alert">
          {error}
        </p>
      )}
      {data && (data.next !== null || page > 1) && <Pagination page={page} hasPrevious={data.previous !== null} hasNext={data.next !== null} onPage={setPage} />}
    </section>
  );
}

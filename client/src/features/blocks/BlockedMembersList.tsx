import { useState } from 'react';
import { Link } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { blockTexts } from '@shared/texts/blocks';
import { Pagination } from '../../components/Pagination';
import { formatDateTime } from '../../lib/format';
import { useBlockedMembers, useBlockMember } from './api/blocked-members';
import { blockErrorMessage } from './BlockMemberButton';
import './blocks.css';

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

import { useCallback, useState } from 'react';
import { sr } from '@shared/texts/sr';
import { ADMIN_USER_SEARCH_MAX } from '@shared/rules/admin';
import { Alert } from '../../../components/Alert';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../auth/use-auth';
import { useAdminUsers, useSetBlocked } from '../api/admin-users';
import type { AdminParams } from '../hooks/use-admin-params';
import { AdminPager } from './AdminPager';
import { ListStates } from './ListStates';
import { SearchBox } from './SearchBox';

const t = sr.admin;

export interface UsersPanelProps {
  params: AdminParams;
  update: (patch: Partial<AdminParams>) => void;
}

/** Users a page at a time, searchable by first name or part of the e-mail; block / unblock. */
export function UsersPanel({ params, update }: UsersPanelProps) {
  const { q, page } = params;
  const users = useAdminUsers({ q, page });
  const setBlocked = useSetBlocked();
  const { user: me } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const onSearch = useCallback((text: string) => update({ q: text }), [update]);

  const toggle = (id: number, blocked: boolean) => {
    setError(null);
    setBlocked.mutate(
      { id, blocked },
      { onError: (err) => setError(err instanceof ApiError && err.body.detail ? err.body.detail : t.actionError) },
    );
  };

  const data = users.data;
  return (
    <section className="admin-section" aria-labelledby="admin-users-title">
      <h2 id="admin-users-title" className="admin-section__title">
        {t.usersTitle}
        {data && <span className="admin-section__count"> ({data.count})</span>}
      </h2>
      <div className="admin-filters">
        <SearchBox label={t.searchUsers} placeholder={t.searchUsersPlaceholder} value={q} onSearch={onSearch} maxLength={ADMIN_USER_SEARCH_MAX} />
      </div>
      {error && <Alert kind="error">{error}</Alert>}
      <ListStates
        pending={users.isPending}
        error={users.isError && !data}
        onRetry={() => void users.refetch()}
        rows={data?.results.length ?? 0}
        count={data?.count ?? 0}
        filtered={!!q}
        q={q}
        emptyText={t.noUsers}
        onFirstPage={() => update({ page: 1 })}
      >
        <ul className="admin-list" aria-busy={users.isPlaceholderData}>
          {data?.results.map((u) => (
            <li key={u.id} className="admin-row card">
              <div className="admin-row__main">
                <span className="admin-row__title">{u.first_name}</span>
                <p className="admin-row__meta">
                  <span className="admin-row__email">{u.email}</span>
                  {u.is_superuser && <span className="badge badge--ok">{t.admin}</span>}
                  {!u.is_verified && <span className="badge badge--muted">{t.unverified}</span>}
                  {u.is_blocked && <span className="badge badge--danger">{t.blocked}</span>}
                </p>
              </div>
              {u.id !== me?.id && (
                <button
                  type="button"
                  className={`btn btn--sm ${u.is_blocked ? 'btn--secondary' : 'btn--danger'}`}
                  onClick={() => toggle(u.id, !u.is_blocked)}
                  disabled={setBlocked.isPending && setBlocked.variables?.id === u.id}
                  aria-label={`${u.is_blocked ? t.unblock : t.block}: ${u.first_name}`}
                >
                  {u.is_blocked ? t.unblock : t.block}
                </button>
              )}
            </li>
          ))}
        </ul>
      </ListStates>
      <AdminPager label={t.pagination(t.usersTitle)} page={page} result={data} onPage={(p) => update({ page: p })} />
    </section>
  );
}

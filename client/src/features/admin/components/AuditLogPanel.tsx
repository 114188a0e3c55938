import { reportTexts as t } from '@shared/texts/reports';
import { formatDateTime } from '../../../lib/format';
import { useAuditLog } from '../api/admin-reports';
import type { AdminParams } from '../hooks/use-admin-params';
import { AdminPager } from './AdminPager';
import { ListStates, pagedStates } from './ListStates';

export interface AuditLogPanelProps {
  params: AdminParams;
  update: (patch: Partial<AdminParams>) => void;
}

/** 'Dnevnik': every admin action, newest first (read-only: the log is append-only). */
export function AuditLogPanel({ params, update }: AuditLogPanelProps) {
  const log = useAuditLog(params.page);
  const data = log.data;
  return (
    <section className="admin-section" aria-labelledby="admin-log-title">
      <h2 id="admin-log-title" className="admin-section__title">
        {t.logTitle}
        {data && <span className="admin-section__count"> ({data.count})</span>}
      </h2>
      <ListStates {...pagedStates(log, () => update({ page: 1 }))} filtered={false} q="" emptyText={t.noLog}>
        <ol className="admin-list" aria-busy={log.isPlaceholderData}>
          {data?.results.map((e) => (
            <li key={e.id} className="admin-row card" data-testid="audit-entry">
              <div className="admin-row__main">
                <span className="admin-row__title">{`${t.auditLabels[e.action]} · ${t.logTarget(t.targetTypeLabels[e.target_type], e.target_id)}`}</span>
                <p className="admin-row__meta">
                  <span>{e.admin.first_name}</span>
                  <time dateTime={e.created_at}>{formatDateTime(e.created_at)}</time>
                  {e.note && <span>{e.note}</span>}
                </p>
              </div>
            </li>
          ))}
        </ol>
      </ListStates>
      <AdminPager label={t.logTitle} page={params.page} result={data} onPage={(p) => update({ page: p })} />
    </section>
  );
}

import { useState } from 'react';
import { Link } from 'react-router-dom';
import { REPORT_STATUSES, type ReportAction, type ReportStatus } from '@shared/rules/reports';
import type { AdminReport } from '@shared/schemas/reports';
import { reportTexts as t } from '@shared/texts/reports';
import { Alert } from '../../../components/Alert';
import { ApiError } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useAdminReports, useResolveReport } from '../api/admin-reports';
import type { AdminParams } from '../hooks/use-admin-params';
import { AdminPager } from './AdminPager';
import { ListStates, pagedStates } from './ListStates';

export interface ReportsPanelProps {
  params: AdminParams;
  update: (patch: Partial<AdminParams>) => void;
}

/** 'Prijave': the moderation queue (open by default), a status filter, paging; each open report's three actions. */
export function ReportsPanel({ params, update }: ReportsPanelProps) {
  const { reportStatus, page } = params;
  const list = useAdminReports({ status: reportStatus, page });
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const data = list.data;
  return (
    <section className="admin-section" aria-labelledby="admin-reports-title">
      <h2 id="admin-reports-title" className="admin-section__title">
        {t.reportsTitle}
        {data && <span className="admin-section__count"> ({data.count})</span>}
      </h2>
      <div className="admin-filters">
        <label className="field admin-filters__select">
          <span className="field__label">{t.statusFilter}</span>
          <select className="field__input" value={reportStatus} onChange={(e) => update({ reportStatus: e.target.value as ReportStatus | '' })}>
            {REPORT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t.statusLabels[s]}
              </option>
            ))}
            <option value="">{t.allStatuses}</option>
          </select>
        </label>
      </div>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      <ListStates {...pagedStates(list, () => update({ page: 1 }))} filtered={false} q="" emptyText={t.noReports}>
        <ul className="admin-list" aria-busy={list.isPlaceholderData}>
          {data?.results.map((r) => <ReportRow key={r.id} report={r} onDone={setMessage} />)}
        </ul>
      </ListStates>
      <AdminPager label={t.reportsTitle} page={page} result={data} onPage={(p) => update({ page: p })} />
    </section>
  );
}

function targetLink(r: AdminReport): string | null {
  if (!r.target) return null;
  if (r.target_type === 'member') return `/clan/${r.target_id}`;
  return r.target_type === 'auction' ? `/aukcija/${r.target_id}` : null;
}

function ReportRow({ report: r, onDone }: { report: AdminReport; onDone: (m: { kind: 'success' | 'error'; text: string }) => void }) {
  const resolve = useResolveReport();
  const [note, setNote] = useState('');
  const label = r.target ? (r.target.title ?? r.target.content ?? r.target.first_name ?? '') : t.deleted;
  const link = targetLink(r);
  const act = (action: ReportAction) =>
    resolve.mutate(
      { id: r.id, action, note },
      {
        onSuccess: () => onDone({ kind: 'success', text: t.actionDone }),
        onError: (err) => onDone({ kind: 'error', text: err instanceof ApiError ? err.message : t.actionError }),
      },
    );
  const actions: ReportAction[] = r.target_type === 'member' ? ['block_owner', 'dismiss'] : ['delete_target', 'block_owner', 'dismiss'];
  return (
    <li className="admin-row admin-report card" data-testid={`report-${r.id}`}>
      <div className="admin-row__main">
        <span className="admin-row__title">
          {`${t.targetTypeLabels[r.target_type]}: `}
          {link ? <Link to={link}>{label}</Link> : <span className={r.target ? undefined : 'admin-report__gone'}>{label}</span>}
        </span>
        <p className="admin-row__meta">
          <span className={`badge ${r.status === 'open' ? 'badge--danger' : 'badge--muted'}`}>{t.statusBadges[r.status]}</span>
          <span>{t.reasonLabels[r.reason]}</span>
          {r.target && <span>{`${t.owner}: ${r.target.owner.first_name}`}</span>}
          <span>{`${t.reporter}: ${r.reporter.first_name}`}</span>
          <time dateTime={r.created_at}>{formatDateTime(r.created_at)}</time>
          <span>{t.reportsOnTarget(r.reports_on_target)}</span>
        </p>
        {r.text && <p className="admin-report__text">{r.text}</p>}
        {r.resolution && (
          <p className="admin-row__meta">
            {`${t.resolution}: ${t.actionLabels[r.resolution.action]} (${r.resolution.admin.first_name})`}
            {r.resolution.note && ` · ${r.resolution.note}`}
          </p>
        )}
        {r.status === 'open' && (
          <div className="admin-report__actions">
            <label className="field">
              <span className="field__label">{t.noteLabel}</span>
              <input className="field__input" value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} />
            </label>
            <div className="admin-report__buttons">
              {actions.map((a) => (
                <button key={a} type="button" className={`btn btn--sm ${a === 'dismiss' ? 'btn--secondary' : 'btn--danger'}`} disabled={resolve.isPending} onClick={() => act(a)}>
                  {t.actionLabels[a]}
                </button>
              ))}
            </div>
          </div>
        )}
      </div>
    </li>
  );
}

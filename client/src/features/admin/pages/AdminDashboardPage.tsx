import { sr } from '@shared/texts/sr';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AdminTabs, panelId, tabId } from '../components/AdminTabs';
import { AuctionsPanel } from '../components/AuctionsPanel';
import { UsersPanel } from '../components/UsersPanel';
import { ReportsPanel } from '../components/ReportsPanel';
import { AuditLogPanel } from '../components/AuditLogPanel';
import type { AdminParams } from '../hooks/use-admin-params';
import { useAdminParams } from '../hooks/use-admin-params';
import '../admin.css';

/** /admin/dashboard: auctions, users, reports ('Prijave') and the audit log ('Dnevnik'), one tab at a time; tab, search, filters and page live in the URL. */
export default function AdminDashboardPage() {
  useDocumentTitle(sr.admin.title);
  const [params, update] = useAdminParams();
  return (
    <div className="page admin-page">
      <h1 className="page-title">{sr.admin.title}</h1>
      <AdminTabs tab={params.tab} onTab={(tab) => update({ tab })} />
      {(['aukcije', 'korisnici', 'prijave', 'dnevnik'] as const).map((tab) => (
        <div key={tab} role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} hidden={params.tab !== tab}>
          {params.tab === tab && <Panel params={params} update={update} />}
        </div>
      ))}
    </div>
  );
}

function Panel(props: { params: AdminParams; update: (patch: Partial<AdminParams>) => void }) {
  switch (props.params.tab) {
    case 'korisnici':
      return <UsersPanel {...props} />;
    case 'prijave':
      return <ReportsPanel {...props} />;
    case 'dnevnik':
      return <AuditLogPanel {...props} />;
    default:
      return <AuctionsPanel {...props} />;
  }
}

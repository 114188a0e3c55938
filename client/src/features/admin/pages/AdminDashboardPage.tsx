import { sr } from '@shared/texts/sr';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AdminTabs, panelId, tabId } from '../components/AdminTabs';
import { AuctionsPanel } from '../components/AuctionsPanel';
import { UsersPanel } from '../components/UsersPanel';
import { useAdminParams } from '../hooks/use-admin-params';
import '../admin.css';

/** /admin/dashboard: auctions and users, one tab at a time; tab, search, filters and page live in the URL. */
export default function AdminDashboardPage() {
  useDocumentTitle(sr.admin.title);
  const [params, update] = useAdminParams();
  return (
    <div className="page admin-page">
      <h1 className="page-title">{sr.admin.title}</h1>
      <AdminTabs tab={params.tab} onTab={(tab) => update({ tab })} />
      {(['aukcije', 'korisnici'] as const).map((tab) => (
        <div key={tab} role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} hidden={params.tab !== tab}>
          {params.tab === tab && (tab === 'korisnici' ? <UsersPanel params={params} update={update} /> : <AuctionsPanel params={params} update={update} />)}
        </div>
      ))}
    </div>
  );
}

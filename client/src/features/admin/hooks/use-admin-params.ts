import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ADMIN_AUCTION_STATUSES, type AdminAuctionSort, type AdminAuctionStatus } from '@shared/rules/admin';
import { REPORT_STATUSES, type ReportStatus } from '@shared/rules/reports';

export type AdminTab = 'aukcije' | 'korisnici' | 'prijave' | 'dnevnik';
const TABS: readonly AdminTab[] = ['aukcije', 'korisnici', 'prijave', 'dnevnik'];
/** The reports tab's status filter in the URL when it shows every status (no `status`: the open ones). */
const ALL_REPORTS = 'sve';

/** The sorts the dashboard offers: end date or bid count (the server also knows the price sorts). */
export const DASHBOARD_SORTS = ['endDateDesc', 'endDateAsc', 'bidsDesc', 'bidsAsc'] as const satisfies readonly AdminAuctionSort[];
export type DashboardSort = (typeof DASHBOARD_SORTS)[number];
export const DEFAULT_SORT: DashboardSort = 'endDateDesc';

/** The dashboard's state, all of it in the URL: ?tab=korisnici&q=&status=&sort=&page=. */
export interface AdminParams {
  tab: AdminTab;
  q: string;
  /** '' = every status. Auctions tab only. */
  status: AdminAuctionStatus | '';
  /** Auctions tab only. */
  sort: DashboardSort;
  /** Reports tab only: '' = every status; 'open' (the queue) by default. */
  reportStatus: ReportStatus | '';
  page: number;
}

export function readAdminParams(s: URLSearchParams): AdminParams {
  const page = Number.parseInt(s.get('page') ?? '1', 10);
  const status = s.get('status') ?? '';
  const sort = s.get('sort') ?? '';
  return {
    tab: (TABS as readonly string[]).includes(s.get('tab') ?? '') ? (s.get('tab') as AdminTab) : 'aukcije',
    q: s.get('q') ?? '',
    status: (ADMIN_AUCTION_STATUSES as readonly string[]).includes(status) ? (status as AdminAuctionStatus) : '',
    sort: (DASHBOARD_SORTS as readonly string[]).includes(sort) ? (sort as DashboardSort) : DEFAULT_SORT,
    reportStatus: status === ALL_REPORTS ? '' : (REPORT_STATUSES as readonly string[]).includes(status) ? (status as ReportStatus) : 'open',
    page: Number.isFinite(page) && page >= 1 ? page : 1,
  };
}

export function writeAdminParams(p: AdminParams): URLSearchParams {
  const s = new URLSearchParams();
  if (p.tab !== 'aukcije') s.set('tab', p.tab);
  if (p.q.trim()) s.set('q', p.q.trim());
  if (p.tab === 'aukcije' && p.status) s.set('status', p.status);
  if (p.tab === 'aukcije' && p.sort !== DEFAULT_SORT) s.set('sort', p.sort);
  if (p.tab === 'prijave' && p.reportStatus !== 'open') s.set('status', p.reportStatus || ALL_REPORTS);
  if (p.page > 1) s.set('page', String(p.page));
  return s;
}

/**
 * The dashboard state and its update: a new search, status or sort starts again at page 1; another tab
 * starts with its own empty filters. Every change is a history entry, so the browser's back button
 * returns to the previous search or page.
 */
export function useAdminParams(): [AdminParams, (patch: Partial<AdminParams>) => void] {
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => readAdminParams(search), [search]);
  const update = useCallback(
    (patch: Partial<AdminParams>) => {
      setSearch((prev) => {
        const cur = readAdminParams(prev);
        const base = patch.tab !== undefined && patch.tab !== cur.tab ? { ...readAdminParams(new URLSearchParams()), tab: patch.tab } : cur;
        const next = { ...base, ...patch };
        if (!('page' in patch)) next.page = 1;
        return writeAdminParams(next);
      });
    },
    [setSearch],
  );
  return [params, update];
}

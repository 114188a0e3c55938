import { ADMIN_PAGE_SIZE } from '../api/admin-auctions';
import { sr } from '@shared/texts/sr';

export interface AdminPagerProps {
  label: string;
  page: number;
  /** The current page's answer (`count`, `previous`, `next`); nothing is shown while there is none or one page. */
  result: { count: number; previous: number | null; next: number | null } | undefined;
  onPage: (page: number) => void;
}

/** 'Prethodna' / 'Strana 2 / 3' / 'Sledeća' under an admin list of ADMIN_PAGE_SIZE rows a page. */
export function AdminPager({ label, page, result, onPage }: AdminPagerProps) {
  if (!result || (result.previous === null && result.next === null)) return null;
  const pages = Math.max(1, Math.ceil(result.count / ADMIN_PAGE_SIZE));
  return (
    <nav className="admin-pager" aria-label={label}>
      <button type="button" className="btn btn--secondary btn--sm" disabled={result.previous === null} onClick={() => onPage(page - 1)}>
        {sr.list.previous}
      </button>
      <span aria-current="page">{`${sr.admin.page(page)} / ${pages}`}</span>
      <button type="button" className="btn btn--secondary btn--sm" disabled={result.next === null} onClick={() => onPage(page + 1)}>
        {sr.list.next}
      </button>
    </nav>
  );
}

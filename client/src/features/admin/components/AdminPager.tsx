import { sr } from '@shared/texts/sr';

export interface AdminPagerProps {
  label: string;
  page: number;
  /** Pages of the current list (at least 1). */
  pages: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPage: (page: number) => void;
}

/** 'Prethodna' / 'Strana 2 od 3' / 'Sledeća'. */
export function AdminPager({ label, page, pages, hasPrevious, hasNext, onPage }: AdminPagerProps) {
  return (
    <nav className="admin-pager" aria-label={label}>
      <button type="button" className="btn btn--secondary btn--sm" disabled={!hasPrevious} onClick={() => onPage(page - 1)}>
        {sr.list.previous}
      </button>
      <span aria-current="page">{`${sr.admin.page(page)} / ${pages}`}</span>
      <button type="button" className="btn btn--secondary btn--sm" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        {sr.list.next}
      </button>
    </nav>
  );
}

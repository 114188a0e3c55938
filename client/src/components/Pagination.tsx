import { sr } from '@shared/texts/sr';
import './pagination.css';

export interface PaginationProps {
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPage: (page: number) => void;
}

/** 'Prethodna' / page number / 'Sledeća'. */
export function Pagination({ page, hasPrevious, hasNext, onPage }: PaginationProps) {
  return (
    <nav className="pagination" aria-label={sr.auctions.pagination}>
      <button type="button" className="pagination__btn" disabled={!hasPrevious || page <= 1} onClick={() => onPage(page - 1)}>
        {sr.list.previous}
      </button>
      <span className="pagination__page" aria-current="page" aria-label={sr.auctions.page(page)}>
        {page}
      </span>
      <button type="button" className="pagination__btn" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        {sr.list.next}
      </button>
    </nav>
  );
}

import type { SaleRole } from '@shared/rules/sales';
import { salesTexts } from '@shared/texts/sales';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { Pagination } from '../../../components/Pagination';
import { usePageParam } from '../../../lib/use-page-param';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSales } from '../api/sales';
import { SaleCard } from './SaleCard';
import '../sales.css';

/** /moje-kupovine (`buyer`) and /moje-prodaje (`seller`): the caller's sales, newest first, 20 a page. */
export function SalesList({ role }: { role: SaleRole }) {
  const title = role === 'buyer' ? salesTexts.purchasesTitle : salesTexts.salesTitle;
  useDocumentTitle(title);
  const [page, setPage] = usePageParam();
  const sales = useSales(role, page);
  const data = sales.data;
  return (
    <div className="page page--sales">
      <h1 className="page-title">{title}</h1>
      {sales.isPending ? (
        <LoadingScreen />
      ) : !data ? (
        <p className="alert alert--error" role="alert">
          {salesTexts.loadError}
        </p>
      ) : data.results.length === 0 ? (
        <p className="empty-state">{role === 'buyer' ? salesTexts.purchasesEmpty : salesTexts.salesEmpty}</p>
      ) : (
        <ul className="sales-list" aria-busy={sales.isFetching}>
          {data.results.map((s) => (
            <li key={s.auction_id}>
              <SaleCard sale={s} />
            </li>
          ))}
        </ul>
      )}
      {data && (data.results.length > 0 || page > 1) && (
        <Pagination
          page={page}
          hasPrevious={data.previous !== null}
          hasNext={data.next !== null}
          onPage={(p) => {
            setPage(p);
            window.scrollTo({ top: 0 });
          }}
        />
      )}
    </div>
  );
}

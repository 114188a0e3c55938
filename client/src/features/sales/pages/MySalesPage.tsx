import { SalesList } from '../components/SalesList';

/** /moje-prodaje ('Prodati predmeti'): the user's auctions that ended with a winner. */
export default function MySalesPage() {
  return <SalesList role="seller" />;
}

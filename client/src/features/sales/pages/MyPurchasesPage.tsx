import { SalesList } from '../components/SalesList';

/** /moje-kupovine ('Kupljeni predmeti'): auctions the user won. */
export default function MyPurchasesPage() {
  return <SalesList role="buyer" />;
}

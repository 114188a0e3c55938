import { LoadingScreen } from '../../../components/LoadingScreen';

/** Placeholder until the auctions feature (C2) lands. */
export default function CreateAuctionPage() {
  return <LoadingScreen />;
}

import { LoadingScreen } from '../../../components/LoadingScreen';

export default function LandingPage() {
  return <LoadingScreen />;
}

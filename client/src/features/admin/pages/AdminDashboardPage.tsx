import { LoadingScreen } from '../../../components/LoadingScreen';

export default function AdminDashboardPage() {
  return <LoadingScreen />;
}

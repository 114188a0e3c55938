import { LoadingScreen } from '../../../components/LoadingScreen';

export default function NotificationsPage() {
  return <LoadingScreen />;
}

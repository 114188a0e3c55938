import { LoadingScreen } from '../../../components/LoadingScreen';

export default function ProfilePage() {
  return <LoadingScreen />;
}

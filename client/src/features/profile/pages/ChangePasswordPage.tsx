import { LoadingScreen } from '../../../components/LoadingScreen';

export default function ChangePasswordPage() {
  return <LoadingScreen />;
}

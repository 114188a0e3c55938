import { LoadingScreen } from '../../../components/LoadingScreen';

export default function ResetPasswordPage() {
  return <LoadingScreen />;
}

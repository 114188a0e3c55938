import { LoadingScreen } from '../../../components/LoadingScreen';

export default function ForgotPasswordPage() {
  return <LoadingScreen />;
}

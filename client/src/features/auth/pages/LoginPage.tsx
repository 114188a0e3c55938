import { LoadingScreen } from '../../../components/LoadingScreen';

export default function LoginPage() {
  return <LoadingScreen />;
}

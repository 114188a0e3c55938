import { LoadingScreen } from '../../../components/LoadingScreen';

export default function RegisterPage() {
  return <LoadingScreen />;
}

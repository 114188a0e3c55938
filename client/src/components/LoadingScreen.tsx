import { sr } from '@shared/texts/sr';
import { Spinner } from './Spinner';
import { Logo } from './Logo';
import './loading-screen.css';

export interface LoadingScreenProps {
  /** Defaults to 'Učitavanje...'. */
  text?: string;
}

/** Full-area loading state: logo, spinner and a text announced to screen readers. */
export function LoadingScreen({ text = sr.common.loading }: LoadingScreenProps) {
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      <Logo className="loading-screen__logo" />
      <Spinner size="lg" />
      <p className="loading-screen__text">{text}</p>
    </div>
  );
}

export default LoadingScreen;

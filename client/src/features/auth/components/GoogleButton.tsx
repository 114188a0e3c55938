import { useEffect, useRef, useState } from 'react';
import { sr } from '@shared/texts/sr';
import { useGoogleConfig } from '../api/google';

interface GoogleId {
  accounts: {
    id: {
      initialize(opts: { client_id: string; callback: (r: { credential?: string }) => void; ux_mode?: string }): void;
      renderButton(el: HTMLElement, opts: Record<string, unknown>): void;
    };
  };
}

declare global {
  interface Window {
    google?: GoogleId;
  }
}

const GSI_SRC = 'https://accounts.google.com/gsi/client';
let gsiPromise: Promise<void> | null = null;

function loadGsi(): Promise<void> {
  if (window.google?.accounts?.id) return Promise.resolve();
  gsiPromise ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = GSI_SRC;
    s.async = true;
    s.defer = true;
    s.onload = () => resolve();
    s.onerror = () => {
      gsiPromise = null;
      reject(new Error('gsi'));
    };
    document.head.appendChild(s);
  });
  return gsiPromise;
}

export interface GoogleButtonProps {
  /** Called with the ID token from Google Identity Services. */
  onCredential(idToken: string): void;
  /** The widget could not load or returned no credential. */
  onError(): void;
}

/**
 * Google sign-in: the Google Identity Services button when the server reports a client id, otherwise a
 * disabled button with a short explanation. The script is only loaded when Google is enabled.
 */
export function GoogleButton({ onCredential, onError }: GoogleButtonProps) {
  const config = useGoogleConfig();
  const holder = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const cb = useRef({ onCredential, onError });
  cb.current = { onCredential, onError };
  const clientId = config.data?.enabled ? config.data.client_id : null;

  useEffect(() => {
    if (!clientId) return;
    let cancelled = false;
    loadGsi()
      .then(() => {
        if (cancelled || !holder.current || !window.google) return;
        window.google.accounts.id.initialize({
          client_id: clientId,
          callback: (r) => (r.credential ? cb.current.onCredential(r.credential) : cb.current.onError()),
        });
        window.google.accounts.id.renderButton(holder.current, {
          theme: 'outline',
          size: 'large',
          text: 'signin_with',
          locale: 'sr',
          width: Math.min(holder.current.clientWidth || 320, 400),
        });
        setReady(true);
      })
      .catch(() => {
        if (!cancelled) cb.current.onError();
      });
    return () => {
      cancelled = true;
    };
  }, [clientId]);

  if (config.isPending) {
    return (
      <button type="button" className="btn btn--secondary btn--block" disabled>
        {sr.auth.googleLoading}
      </button>
    );
  }
  if (!clientId) {
    return (
      <div className="google-btn google-btn--disabled">
        <button type="button" className="btn btn--secondary btn--block" disabled aria-describedby="google-disabled-why">
          <GoogleMark />
          {sr.auth.googleDisabled}
        </button>
        <p id="google-disabled-why" className="field__hint google-btn__why">
          {sr.auth.googleDisabledWhy}
        </p>
      </div>
    );
  }
  return (
    <div className="google-btn">
      {!ready && <p className="field__hint">{sr.auth.googleLoading}</p>}
      <div ref={holder} className="google-btn__holder" />
    </div>
  );
}

function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9 3.6l6.7-6.7C35.6 2.4 30.2 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.8 6C12.4 13.6 17.7 9.5 24 9.5z" />
      <path fill="#4285F4" d="M46.1 24.6c0-1.6-.2-3.2-.5-4.6H24v9h12.4c-.5 2.9-2.2 5.3-4.6 7l7.4 5.7c4.3-4 6.9-9.9 6.9-17.1z" />
      <path fill="#FBBC05" d="M10.5 28.7A14.5 14.5 0 019.5 24c0-1.6.3-3.2.8-4.7l-7.8-6A24 24 0 000 24c0 3.9.9 7.5 2.6 10.7l7.9-6z" />
      <path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.4-5.7c-2.1 1.4-4.8 2.3-8.5 2.3-6.3 0-11.6-4.2-13.5-9.9l-7.9 6C6.6 42.6 14.6 48 24 48z" />
    </svg>
  );
}

export default GoogleButton;

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { GOOGLE_REDIRECT_ERROR, VERIFY_RESULT } from '@shared/schemas/accounts';
import { Alert } from '../../../components/Alert';
import { TextField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useWhiteBackground } from '../../../lib/use-white-background';
import { validateEmail } from '../../../lib/validation';
import { useAuth } from '../use-auth';
import { useLogin, useResendVerification } from '../api/login';
import { useGoogleLogin } from '../api/google';
import { GoogleButton } from '../components/GoogleButton';
import { clearSessionEnd, peekSessionEnd, type SessionEndNote } from '../session-end';
import '../auth.css';

export const LOGIN_REDIRECT_MS = 1800;

type Message = { kind: 'error' | 'success' | 'info'; text: string } | null;

/** The message the verification link or the Google redirect flow left in the query string. */
function flagMessage(params: URLSearchParams): Message {
  const verified = params.get('verified');
  if (verified === VERIFY_RESULT.ok) return { kind: 'success', text: sr.auth.verifiedOk };
  if (verified === VERIFY_RESULT.already) return { kind: 'info', text: sr.auth.verifiedAlready };
  if (verified === VERIFY_RESULT.failed) return { kind: 'error', text: sr.auth.verifiedFail };
  const google = params.get('google');
  if (google === GOOGLE_REDIRECT_ERROR.blocked) return { kind: 'error', text: sr.login.blocked };
  if (google === 'not_configured') return { kind: 'error', text: sr.auth.googleDisabledWhy };
  if (google === GOOGLE_REDIRECT_ERROR.failed) return { kind: 'error', text: sr.login.googleFailed };
  return null;
}

/** Why the user is here again, when a session ended under an open page. */
function sessionEndMessage(ended: SessionEndNote | null): Message {
  if (!ended) return null;
  return { kind: 'error', text: ended.reason === 'blocked' ? sr.session.blocked : sr.session.ended };
}

export default function LoginPage() {
  useDocumentTitle(sr.auth.loginTitle);
  useWhiteBackground();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const auth = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Read once per visit; forgotten when the user leaves the page (or logs in).
  const [ended] = useState(peekSessionEnd);
  const [message, setMessage] = useState<Message>(() => flagMessage(params) ?? sessionEndMessage(ended));
  const login = useLogin();
  const googleLogin = useGoogleLogin();
  const [succeeded, setSucceeded] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const offerResend = params.get('verified') === VERIFY_RESULT.failed;

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
    clearSessionEnd();
  }, []);

  /** 'Uspesno ste se ulogovali!', then after 1.8 s to the target (the session is re-read meanwhile). */
  const succeed = (target: string) => {
    setSucceeded(true);
    setMessage({ kind: 'success', text: sr.login.success });
    const refreshed = auth.refresh().catch(() => undefined);
    timer.current = setTimeout(() => {
      // Only paths of this site: a redirect_url can never send the user elsewhere.
      const safe = target.startsWith('/') && !target.startsWith('//') ? target : '/aukcije';
      void refreshed.then(() => navigate(safe, { replace: true }));
    }, LOGIN_REDIRECT_MS);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (login.isPending || succeeded) return;
    if (!email.trim() || !password) {
      setMessage({ kind: 'error', text: sr.login.required });
      return;
    }
    setMessage(null);
    try {
      const res = await login.mutateAsync({ email: email.trim(), password });
      // Back to the page the session ended on, if it did; else the default.
      succeed(ended?.from || res.redirect_url || '/aukcije');
    } catch (err) {
      if (err instanceof ApiError && (err.status === 403 || err.status === 429) && err.body.detail) {
        setMessage({ kind: 'error', text: err.body.detail });
      } else {
        setMessage({ kind: 'error', text: sr.login.invalid });
      }
    }
  };

  const onGoogleCredential = async (idToken: string) => {
    setMessage(null);
    try {
      const res = await googleLogin.mutateAsync(idToken);
      succeed(res.is_new_user ? '/profil' : ended?.from || res.redirect_url || '/aukcije');
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) setMessage({ kind: 'error', text: err.body.detail || sr.login.blocked });
      else setMessage({ kind: 'error', text: sr.login.googleFailed });
    }
  };

  return (
    <div className="auth-page">
      <h1 className="auth-page__title">{sr.auth.loginTitle}</h1>
      {message && (
        <Alert kind={message.kind} className="auth-page__message">
          {message.text}
        </Alert>
      )}
      {offerResend && !succeeded && <ResendVerification />}
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label={sr.auth.emailLabel}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label={sr.auth.passwordLabel}
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button type="submit" className="btn btn--brand btn--block" disabled={login.isPending || succeeded}>
          {login.isPending ? sr.auth.loggingIn : sr.auth.loginSubmit}
        </button>
      </form>
      <p className="auth-page__links">
        <Link to="/zaboravljena-lozinka">{sr.auth.forgotLink}</Link>
      </p>
      <div className="auth-page__divider">{sr.auth.or}</div>
      <GoogleButton
        onCredential={(t) => void onGoogleCredential(t)}
        onError={() => setMessage({ kind: 'error', text: sr.login.googleFailed })}
      />
    </div>
  );
}

/** After a broken or expired verification link: ask for a new one. */
function ResendVerification() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState<string | null>(null);
  const resend = useResendVerification();
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const err = validateEmail(email);
    setError(err);
    if (err) return;
    try {
      const res = await resend.mutateAsync(email.trim());
      setDone(res.detail || sr.auth.resendSent);
    } catch (e2) {
      setError(e2 instanceof ApiError ? e2.field('email') ?? e2.body.detail ?? sr.auth.resendError : sr.auth.resendError);
    }
  };
  if (done) return <Alert kind="success">{done}</Alert>;
  return (
    <form className="form auth-resend" onSubmit={onSubmit} noValidate>
      <p className="field__hint">{sr.auth.resendIntro}</p>
      <TextField
        label={sr.auth.emailLabel}
        type="email"
        autoComplete="email"
        value={email}
        error={error}
        onChange={(e) => {
          setEmail(e.target.value);
          setError(undefined);
        }}
      />
      <button type="submit" className="btn btn--secondary" disabled={resend.isPending}>
        {sr.auth.resendSubmit}
      </button>
    </form>
  );
}

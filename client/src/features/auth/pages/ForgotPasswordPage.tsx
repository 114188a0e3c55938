import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { Alert } from '../../../components/Alert';
import { TextField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useWhiteBackground } from '../../../lib/use-white-background';
import { validateEmail } from '../../../lib/validation';
import { useRequestPasswordReset } from '../api/password-reset';
import '../auth.css';

/** /zaboravljena-lozinka: asks for the reset mail. */
export default function ForgotPasswordPage() {
  useDocumentTitle(sr.auth.forgotTitle);
  useWhiteBackground();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [general, setGeneral] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const request = useRequestPasswordReset();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setGeneral(null);
    const err = validateEmail(email);
    setError(err);
    if (err) return;
    try {
      await request.mutateAsync(email.trim());
      setSent(true);
    } catch (e2) {
      if (e2 instanceof ApiError && e2.field('email')) setError(e2.field('email'));
      else setGeneral(e2 instanceof ApiError && e2.body.detail ? e2.body.detail : sr.auth.forgotError);
    }
  };

  return (
    <div className="auth-page">
      <h1 className="auth-page__title">{sr.auth.forgotTitle}</h1>
      {sent ? (
        <Alert kind="success">{sr.auth.forgotSent}</Alert>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate>
          <p className="field__hint">{sr.auth.forgotIntro}</p>
          {general && <Alert kind="error">{general}</Alert>}
          <TextField
            label={sr.auth.emailLabel}
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            error={error}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(undefined);
            }}
          />
          <button type="submit" className="btn btn--brand btn--block" disabled={request.isPending}>
            {request.isPending ? sr.auth.forgotSending : sr.auth.forgotSubmit}
          </button>
        </form>
      )}
      <p className="auth-page__links">
        <Link to="/login">{sr.auth.backToLogin}</Link>
      </p>
    </div>
  );
}

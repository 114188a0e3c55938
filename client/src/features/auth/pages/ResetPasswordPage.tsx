import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { Alert } from '../../../components/Alert';
import { TextField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useWhiteBackground } from '../../../lib/use-white-background';
import { validatePasswordPair } from '../../../lib/validation';
import { useConfirmPasswordReset } from '../api/password-reset';
import '../auth.css';

/** /zaboravljena-lozinka/:token — the link from the reset mail: choose a new password. */
export default function ResetPasswordPage() {
  useDocumentTitle(sr.auth.resetTitle);
  useWhiteBackground();
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const confirmReset = useConfirmPasswordReset();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setGeneral(null);
    const found = validatePasswordPair(password, confirm);
    setErrors(found);
    if (found.password || found.confirm) return;
    try {
      await confirmReset.mutateAsync({ token, password });
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && err.field('password')) setErrors({ password: err.field('password') });
      else setGeneral(err instanceof ApiError && err.status === 400 ? sr.auth.resetInvalid : (err instanceof ApiError && err.body.detail) || sr.auth.changeError);
    }
  };

  return (
    <div className="auth-page">
      <h1 className="auth-page__title">{sr.auth.resetTitle}</h1>
      {done ? (
        <Alert kind="success">{sr.auth.resetSuccess}</Alert>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate>
          {general && <Alert kind="error">{general}</Alert>}
          <TextField
            label={sr.auth.newPasswordLabel}
            type="password"
            autoComplete="new-password"
            value={password}
            error={errors.password}
            onChange={(e) => {
              setPassword(e.target.value);
              setErrors((x) => ({ ...x, password: undefined }));
            }}
          />
          <TextField
            label={sr.auth.confirmNewLabel}
            type="password"
            autoComplete="new-password"
            value={confirm}
            error={errors.confirm}
            onChange={(e) => {
              setConfirm(e.target.value);
              setErrors((x) => ({ ...x, confirm: undefined }));
            }}
          />
          <button type="submit" className="btn btn--brand btn--block" disabled={confirmReset.isPending}>
            {sr.auth.resetSubmit}
          </button>
        </form>
      )}
      <p className="auth-page__links">
        <Link to="/login">{sr.auth.backToLogin}</Link>
      </p>
    </div>
  );
}

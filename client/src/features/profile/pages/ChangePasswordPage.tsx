import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { Alert } from '../../../components/Alert';
import { TextField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { validatePasswordPair } from '../../../lib/validation';
import { useChangePassword } from '../api/change-password';
import '../profile.css';

type Field = 'old' | 'next' | 'confirm';

/** /promena-lozinke: old, new and confirmation; changes the password for real. */
export default function ChangePasswordPage() {
  useDocumentTitle(sr.auth.changeTitle);
  const change = useChangePassword();
  const [values, setValues] = useState<Record<Field, string>>({ old: '', next: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const set = (field: Field) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((er) => (er[field] ? { ...er, [field]: undefined } : er));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (change.isPending) return;
    setResult(null);
    const pair = validatePasswordPair(values.next, values.confirm);
    const found: Partial<Record<Field, string>> = {
      old: values.old ? undefined : sr.auth.oldRequired,
      next: pair.password,
      confirm: pair.confirm,
    };
    if (!found.next && values.old && values.next === values.old) found.next = sr.auth.changeSameAsOld;
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    try {
      await change.mutateAsync({ old: values.old, next: values.next });
      setValues({ old: '', next: '', confirm: '' });
      setResult({ kind: 'success', text: sr.auth.changeSuccess });
    } catch (err) {
      if (err instanceof ApiError && (err.field('old_password') || err.field('new_password'))) {
        setErrors({ old: err.field('old_password'), next: err.field('new_password') });
      } else {
        setResult({ kind: 'error', text: (err instanceof ApiError && err.status !== 403 && err.body.detail) || sr.auth.changeError });
      }
    }
  };

  return (
    <div className="page page--narrow profile-page">
      <h1 className="page-title">{sr.auth.changeTitle}</h1>
      <form className="form card profile-card" onSubmit={onSubmit} noValidate>
        {result && <Alert kind={result.kind}>{result.text}</Alert>}
        <TextField
          label={sr.auth.oldPasswordLabel}
          type="password"
          name="old_password"
          autoComplete="current-password"
          value={values.old}
          onChange={set('old')}
          error={errors.old}
        />
        <TextField
          label={sr.auth.newPasswordLabel}
          type="password"
          name="new_password"
          autoComplete="new-password"
          value={values.next}
          onChange={set('next')}
          error={errors.next}
        />
        <TextField
          label={sr.auth.confirmNewLabel}
          type="password"
          name="confirm_password"
          autoComplete="new-password"
          value={values.confirm}
          onChange={set('confirm')}
          error={errors.confirm}
        />
        <button type="submit" className="btn btn--brand btn--block" disabled={change.isPending}>
          {change.isPending ? sr.auth.changeSaving : sr.auth.changeSubmit}
        </button>
        <p className="profile-card__links">
          <Link to="/profil">{sr.profile.title}</Link>
        </p>
      </form>
    </div>
  );
}

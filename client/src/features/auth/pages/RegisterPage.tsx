import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { Alert } from '../../../components/Alert';
import { Dialog } from '../../../components/Dialog';
import { TextField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useWhiteBackground } from '../../../lib/use-white-background';
import { validateRegistration, type FieldErrors, type RegisterField, type RegisterValues } from '../../../lib/validation';
import { useRegister } from '../api/register';
import '../auth.css';

const EMPTY: RegisterValues = { first_name: '', email: '', phone_number: '', password: '', confirmPassword: '' };
const SERVER_FIELDS: RegisterField[] = ['first_name', 'email', 'phone_number', 'password'];

export default function RegisterPage() {
  useDocumentTitle(sr.register.title);
  useWhiteBackground();
  const navigate = useNavigate();
  const [values, setValues] = useState<RegisterValues>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<RegisterField>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const registration = useRegister();
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);

  const set = (field: RegisterField) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    // A field's error clears when the field is edited (spec §5).
    setErrors((er) => (er[field] ? { ...er, [field]: undefined } : er));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (registration.isPending) return;
    setGeneral(null);
    const found = validateRegistration(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    try {
      await registration.mutateAsync({
        first_name: values.first_name.trim(),
        email: values.email.trim(),
        phone_number: values.phone_number.trim(),
        password: values.password,
      });
      setRegisteredEmail(values.email.trim());
    } catch (err) {
      const fieldErrors: FieldErrors<RegisterField> = {};
      if (err instanceof ApiError) {
        for (const f of SERVER_FIELDS) {
          const m = err.field(f);
          if (m) fieldErrors[f] = m;
        }
      }
      if (Object.keys(fieldErrors).length > 0) setErrors(fieldErrors);
      else setGeneral(err instanceof ApiError && err.status === 429 && err.body.detail ? err.body.detail : sr.register.genericError);
    }
  };

  const closeDialog = () => navigate('/login');

  return (
    <div className="auth-page">
      <h1 className="auth-page__title">{sr.register.title}</h1>
      {general && (
        <Alert kind="error" className="auth-page__message">
          {general}
        </Alert>
      )}
      {registeredEmail && (
        <Alert kind="success" className="auth-page__message">
          {sr.register.success}
        </Alert>
      )}
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label={sr.register.firstNameLabel}
          name="first_name"
          autoComplete="name"
          value={values.first_name}
          onChange={set('first_name')}
          error={errors.first_name}
        />
        <TextField
          label={sr.auth.emailLabel}
          type="email"
          name="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          error={errors.email}
        />
        <TextField
          label={sr.auth.phoneLabel}
          type="tel"
          name="phone_number"
          autoComplete="tel"
          inputMode="tel"
          value={values.phone_number}
          onChange={set('phone_number')}
          error={errors.phone_number}
        />
        <TextField
          label={sr.auth.passwordLabel}
          type="password"
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          error={errors.password}
        />
        <TextField
          label={sr.auth.confirmLabel}
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={set('confirmPassword')}
          error={errors.confirmPassword}
        />
        <button type="submit" className="btn btn--brand btn--block" disabled={registration.isPending || !!registeredEmail}>
          {registration.isPending ? sr.auth.registering : sr.auth.registerSubmit}
        </button>
      </form>
      <Dialog
        open={!!registeredEmail}
        title={sr.register.success}
        onClose={closeDialog}
        actions={
          <button type="button" className="btn btn--brand" onClick={closeDialog}>
            {sr.auth.registerDialogClose}
          </button>
        }
      >
        <p>{registeredEmail ? sr.auth.registerSent(registeredEmail) : null}</p>
      </Dialog>
    </div>
  );
}

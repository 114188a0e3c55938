import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { notificationSettingsTexts } from '@shared/texts/notification-settings';
import { Alert } from '../../../components/Alert';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { TextField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAuth } from '../../auth/use-auth';
import { useUpdateProfile } from '../api/update-profile';
import '../profile.css';

export const PROFILE_REDIRECT_MS = 1300;

type Field = 'first_name' | 'phone_number' | 'city';

export default function ProfilePage() {
  useDocumentTitle(sr.profile.title);
  const { user } = useAuth();
  if (!user) return <LoadingScreen />;
  return <ProfileForm key={user.id} initial={user} />;
}

function ProfileForm({ initial }: { initial: { email: string; first_name: string; phone_number: string; city: string } }) {
  const navigate = useNavigate();
  const update = useUpdateProfile();
  const [values, setValues] = useState<Record<Field, string>>({
    first_name: initial.first_name,
    phone_number: initial.phone_number ?? '',
    city: initial.city ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [phoneWarning, setPhoneWarning] = useState(false);
  // Success or error, never both (spec §4).
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const set = (field: Field) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((er) => (er[field] ? { ...er, [field]: undefined } : er));
    if (field === 'phone_number') setPhoneWarning(false);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (update.isPending || result?.kind === 'success') return;
    setResult(null);
    if (!values.first_name.trim()) {
      setErrors({ first_name: sr.register.firstNameRequired });
      return;
    }
    // An empty phone only warns; it does not block the save (spec §5).
    setPhoneWarning(!values.phone_number.trim());
    try {
      await update.mutateAsync({
        first_name: values.first_name.trim(),
        phone_number: values.phone_number.trim(),
        city: values.city.trim(),
        email: initial.email,
      });
      setResult({ kind: 'success', text: sr.profile.success });
      timer.current = setTimeout(() => navigate('/aukcije'), PROFILE_REDIRECT_MS);
    } catch (err) {
      if (err instanceof ApiError) {
        const fieldErrors: Partial<Record<Field, string>> = {};
        for (const f of ['first_name', 'phone_number', 'city'] as const) {
          const m = err.field(f);
          if (m) fieldErrors[f] = m;
        }
        setErrors(fieldErrors);
      }
      setResult({ kind: 'error', text: sr.profile.error });
    }
  };

  return (
    <div className="page page--narrow profile-page">
      <h1 className="page-title">{sr.profile.title}</h1>
      <form className="form card profile-card" onSubmit={onSubmit} noValidate>
        {result && <Alert kind={result.kind}>{result.text}</Alert>}
        <TextField label={sr.auth.emailLabel} type="email" value={initial.email} readOnly name="email" />
        <TextField
          label={sr.register.firstNameLabel}
          name="first_name"
          autoComplete="name"
          required
          value={values.first_name}
          onChange={set('first_name')}
          error={errors.first_name}
        />
        <TextField
          label={sr.auth.phoneLabel}
          name="phone_number"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={values.phone_number}
          onChange={set('phone_number')}
          error={errors.phone_number}
          hint={phoneWarning ? sr.profile.phoneMissing : null}
        />
        <TextField
          label={sr.auth.cityLabel}
          name="city"
          autoComplete="address-level2"
          value={values.city}
          onChange={set('city')}
          error={errors.city}
        />
        <button type="submit" className="btn btn--brand btn--block" disabled={update.isPending}>
          {update.isPending ? sr.auth.profileSaving : sr.profile.submit}
        </button>
        <p className="profile-card__links">
          <Link to="/promena-lozinke">{sr.auth.changePasswordLink}</Link>
          {' · '}
          <Link to="/podesavanja-obavestenja">{notificationSettingsTexts.title}</Link>
        </p>
      </form>
    </div>
  );
}

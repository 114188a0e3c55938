import { useEffect, useState, type FormEvent } from 'react';
import { sr } from '@shared/texts/sr';
import { notificationSettingsTexts as t } from '@shared/texts/notification-settings';
import { emailKindLabels } from '@shared/texts/email-alerts';
import { EMAIL_KINDS, type EmailKind } from '@shared/rules/email-kinds';
import { Alert } from '../../../components/Alert';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNotificationSettings, useSaveNotificationSettings } from '../api/notification-settings';
import '../notifications.css';

type EmailSettings = Record<EmailKind, boolean>;

/** /podesavanja-obavestenja: which notifications also come by e-mail (in-app ones are always on). */
export default function NotificationSettingsPage() {
  useDocumentTitle(t.title);
  const settings = useNotificationSettings();
  const save = useSaveNotificationSettings();
  const [values, setValues] = useState<EmailSettings | null>(null);
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  useEffect(() => {
    if (settings.data && !values) setValues(settings.data.email);
  }, [settings.data, values]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!values || save.isPending) return;
    setResult(null);
    try {
      const saved = await save.mutateAsync({ email: values });
      setValues(saved.email);
      setResult({ kind: 'success', text: t.saved });
    } catch {
      setResult({ kind: 'error', text: t.failed });
    }
  };

  return (
    <div className="page page--narrow notification-settings-page">
      <h1 className="page-title">{t.title}</h1>
      {settings.isError ? (
        <Alert kind="error">
          {sr.app.loadError}{' '}
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void settings.refetch()}>
            {sr.app.retry}
          </button>
        </Alert>
      ) : !values ? (
        <LoadingScreen />
      ) : (
        <form className="form card notification-settings" onSubmit={onSubmit} noValidate>
          {result && <Alert kind={result.kind}>{result.text}</Alert>}
          <p>{t.intro}</p>
          <fieldset className="notification-settings__kinds">
            <legend>{t.emailHeading}</legend>
            {EMAIL_KINDS.map((kind) => (
              <label key={kind} className="notification-settings__kind">
                <input
                  type="checkbox"
                  name={kind}
                  checked={values[kind]}
                  onChange={(e) => {
                    const on = e.target.checked;
                    setValues((v) => (v ? { ...v, [kind]: on } : v));
                    setResult(null);
                  }}
                />
                <span>{emailKindLabels[kind]}</span>
              </label>
            ))}
          </fieldset>
          <button type="submit" className="btn btn--brand btn--block" disabled={save.isPending}>
            {t.save}
          </button>
        </form>
      )}
    </div>
  );
}

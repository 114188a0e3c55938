import { useId, useState } from 'react';
import { reasonsFor, REPORT_TEXT_MAX, type ReportReason, type ReportTargetType } from '@shared/rules/reports';
import { reportTexts as t } from '@shared/texts/reports';
import { Dialog } from '../../../components/Dialog';
import { ApiError } from '../../../lib/api';
import { useCreateReport } from '../api/create-report';
// Its styles are in auctions.css (loaded with every page that shows it): a CSS file of its own would cost the first load a preload entry.

export interface ReportButtonProps {
  targetType: ReportTargetType;
  targetId: number;
  /** What the button's accessible name adds to 'Prijavi' (e.g. the comment's author). */
  what?: string;
  className?: string;
}

/** 'Prijavi' and its dialog (issue 24): the reasons in Serbian, a description (required for 'Drugo'). Loaded lazily. */
export default function ReportButton({ targetType, targetId, what, className }: ReportButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={`report-btn${className ? ` ${className}` : ''}`} aria-label={what ? t.reportAria(what) : undefined} onClick={() => setOpen(true)}>
        {t.report}
      </button>
      {open && <ReportDialog targetType={targetType} targetId={targetId} onClose={() => setOpen(false)} />}
    </>
  );
}

function ReportDialog({ targetType, targetId, onClose }: { targetType: ReportTargetType; targetId: number; onClose: () => void }) {
  const create = useCreateReport();
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; text?: string; general?: string }>({});
  const ids = { reason: useId(), text: useId(), textError: useId() };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const trimmed = text.trim();
    const local = { reason: reason ? undefined : t.reasonInvalid, text: reason === 'other' && !trimmed ? t.textRequired : trimmed.length > REPORT_TEXT_MAX ? t.textTooLong : undefined };
    if (local.reason || local.text) return setErrors(local);
    setErrors({});
    create.mutate(
      { target_type: targetType, target_id: targetId, reason: reason as ReportReason, text: trimmed },
      {
        onError: (err) =>
          setErrors(err instanceof ApiError ? { reason: err.field('reason'), text: err.field('text'), general: err.field('reason') || err.field('text') ? undefined : err.message } : { general: t.sendError }),
      },
    );
  };

  const done = create.isSuccess;
  const actions = done ? (
    <button type="button" className="btn btn--brand" onClick={onClose}>
      {t.close}
    </button>
  ) : (
    <>
      <button type="button" className="btn btn--secondary" onClick={onClose}>
        {t.cancel}
      </button>
      <button type="submit" form={ids.reason} className="btn btn--danger" disabled={create.isPending}>
        {create.isPending ? t.sending : t.send}
      </button>
    </>
  );
  return (
    <Dialog open title={t.dialogTitle(targetType)} onClose={onClose} actions={actions} className="report-dialog">
      {done ? (
        <p className="alert alert--success" role="status">
          {t.sent}
        </p>
      ) : (
        <form id={ids.reason} className="report-form" onSubmit={submit} noValidate>
          <fieldset className="report-form__reasons" aria-invalid={errors.reason ? true : undefined}>
            <legend className="field__label">{t.reasonLegend}</legend>
            {reasonsFor(targetType).map((r) => (
              <label key={r} className="report-form__reason">
                <input type="radio" name="reason" value={r} checked={reason === r} onChange={() => setReason(r)} />
                {t.reasonLabels[r]}
              </label>
            ))}
            {errors.reason && (
              <p className="field__error" role="alert">
                {errors.reason}
              </p>
            )}
          </fieldset>
          <label htmlFor={ids.text} className="field__label">
            {t.textLabel}
          </label>
          <textarea
            id={ids.text}
            className="field__input"
            rows={3}
            value={text}
            maxLength={REPORT_TEXT_MAX + 50}
            aria-invalid={errors.text ? true : undefined}
            aria-describedby={errors.text ? ids.textError : undefined}
            onChange={(e) => setText(e.target.value)}
          />
          <p className="field__hint">{`${text.trim().length}/${REPORT_TEXT_MAX}`}</p>
          {errors.text && (
            <p id={ids.textError} className="field__error" role="alert">
              {errors.text}
            </p>
          )}
          {errors.general && (
            <p className="alert alert--error" role="alert">
              {errors.general}
            </p>
          )}
        </form>
      )}
    </Dialog>
  );
}

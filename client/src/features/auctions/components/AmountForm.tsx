import { useId, type ReactNode } from 'react';

export interface AmountFormProps {
  label: string;
  submitLabel: string;
  /** 'btn--primary' (a bid) or 'btn--secondary' (a maximum). */
  submitClass: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The smallest amount that makes sense (also the placeholder). */
  min: number;
  error: string | null;
  /** An explanation the input is described by. */
  hintId?: string;
  busy: boolean;
  onSubmit: () => void;
  /** Below the error (e.g. the outbid-at-once message). */
  children?: ReactNode;
}

/** A whole-dinar amount with its button and message: the manual bid and the maximum share it. */
export function AmountForm({ label, submitLabel, submitClass, value, onValueChange, min, error, hintId, busy, onSubmit, children }: AmountFormProps) {
  const inputId = useId();
  const errorId = useId();
  const describedBy = [hintId, error ? errorId : undefined].filter(Boolean).join(' ');
  return (
    <form
      className="bid-box__form"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      noValidate
    >
      <label htmlFor={inputId} className="bid-box__label">
        {label}
      </label>
      <div className="bid-box__row">
        <input
          id={inputId}
          className="field__input bid-box__input"
          type="number"
          inputMode="numeric"
          min={min}
          step={1}
          placeholder={String(min)}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          onChange={(e) => onValueChange(e.target.value)}
        />
        <button type="submit" className={`btn ${submitClass} bid-box__submit`} disabled={busy}>
          {submitLabel}
        </button>
      </div>
      {error && (
        <p id={errorId} className="field__error bid-box__error" role="alert">
          {error}
        </p>
      )}
      {children}
    </form>
  );
}

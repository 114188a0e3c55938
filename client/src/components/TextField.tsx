import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

interface FieldProps {
  label: ReactNode;
  /** Shown under the field and linked with aria-describedby; marks the control invalid. */
  error?: string | null;
  /** A non-blocking note (e.g. a warning) under the field. */
  hint?: string | null;
  /** Classes added to the wrapper, not to the control. */
  className?: string;
}

/** What the label, the error and the hint need from the control they describe. */
interface ControlProps {
  id: string;
  className: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>, FieldProps {}
export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'>, FieldProps {}
export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'>, FieldProps {}

function Field({ label, error, hint, className, control }: FieldProps & { control: (props: ControlProps) => ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {control({ id, className: 'field__input', 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/** A labelled input with its error message. */
export function TextField({ label, error, hint, className, ...input }: TextFieldProps) {
  return <Field label={label} error={error} hint={hint} className={className} control={(p) => <input {...p} {...input} />} />;
}

/** A labelled textarea with its error message. */
export function TextAreaField({ label, error, hint, className, ...textarea }: TextAreaFieldProps) {
  return <Field label={label} error={error} hint={hint} className={className} control={(p) => <textarea {...p} {...textarea} />} />;
}

/** A labelled select (the options are its children) with its error message. */
export function SelectField({ label, error, hint, className, children, ...select }: SelectFieldProps) {
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      className={className}
      control={(p) => (
        <select {...p} {...select}>
          {children}
        </select>
      )}
    />
  );
}

export default TextField;

import type { ReactNode } from 'react';

export interface AlertProps {
  kind: 'error' | 'success' | 'info';
  children: ReactNode;
  className?: string;
}

/** A message box announced to screen readers (errors assertively). */
export function Alert({ kind, children, className }: AlertProps) {
  return (
    <p className={`alert alert--${kind}${className ? ` ${className}` : ''}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

export default Alert;

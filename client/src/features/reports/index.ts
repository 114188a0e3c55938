import { lazy } from 'react';

/**
 * 'Prijavi' with its dialog (issue 24), for the auction detail, each comment and /clan/{id}. Lazy: those pages are at
 * the first-load budget, so the button, the dialog and their texts load in a chunk of their own.
 */
export const ReportButton = lazy(() => import('./components/ReportButton'));

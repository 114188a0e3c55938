/**
 * 'Prijavi' imported statically, for pages that are lazy chunks already (/clan/{id}). The detail page uses the lazy
 * `ReportButton` of ./index instead: it is at the first-load budget.
 */
export { default as ReportButtonNow } from './components/ReportButton';

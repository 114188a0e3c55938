/** Serbian locale formatting (sr-Latn-RS: 12.500). Whole dinars only. */
const numberFmt = new Intl.NumberFormat('sr-Latn-RS', { maximumFractionDigits: 0 });

/** Groups thousands with '.', independent of ICU data availability. */
export function formatNumber(n: number): string {
  const s = numberFmt.format(Math.trunc(n));
  // Small-ICU builds fall back to 'en' grouping; force the Serbian separator.
  return s.replace(/,/g, '.').replace(/\u00a0/g, '.');
}

/** '12.500 RSD' */
export function formatPrice(n: number): string {
  return `${formatNumber(n)} RSD`;
}

/** '12.500 Din.' (bid history) */
export function formatDin(n: number): string {
  return `${formatNumber(n)} Din.`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'dd.mm.yyyy hh:mm:ss', 24-hour, local time. Returns '' for an invalid date. */
export function formatDateTime(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}


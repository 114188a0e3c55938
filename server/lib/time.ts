/** `ms` (since the epoch) as UTC ISO-8601 with `Z`, the only time format stored and sent. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

/** UTC ISO-8601 with `Z`, the only time format stored and sent. */
export function isoNow(now: number = Date.now()): string {
  return new Date(now).toISOString();
}

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

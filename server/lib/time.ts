/** `ms` (since the epoch) as UTC ISO-8601 with `Z`, the only time format stored and sent. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

/** `p`, or a rejection with `message` once `ms` have passed without it settling. */
export function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

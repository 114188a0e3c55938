/**
 * The client's idea of "now", corrected by an offset to the server's clock (design.md §3: the server clock is
 * the only clock). The live-updates work measures the offset and calls setOffset(); countdowns read now().
 */
let offsetMs = 0;
const listeners = new Set<() => void>();

/** Current time in ms, as the server sees it (best estimate). */
export function now(): number {
  return Date.now() + offsetMs;
}

/** Sets the difference server time − local time in ms; countdowns re-render on their next tick. */
export function setOffset(ms: number): void {
  if (!Number.isFinite(ms)) return;
  offsetMs = ms;
  for (const l of listeners) l();
}

export function getOffset(): number {
  return offsetMs;
}

/** Subscribe to offset changes; returns an unsubscribe function. */
export function onOffsetChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

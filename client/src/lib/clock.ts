import { useSyncExternalStore } from 'react';

/**
 * The client's idea of "now", corrected by an offset to the server's clock (design.md §3: the server clock is
 * the only clock). The live layer measures the offset with `time:sync` and calls setOffset(); countdowns read
 * now() on the beat of ONE shared ticker (useTick), not one interval each.
 */
let offsetMs = 0;

/** Current time in ms, as the server sees it (best estimate). */
export function now(): number {
  return Date.now() + offsetMs;
}

/** Sets the difference server time − local time in ms; countdowns re-render at once. */
export function setOffset(ms: number): void {
  if (!Number.isFinite(ms) || ms === offsetMs) return;
  offsetMs = ms;
  ticker.bump();
}

export function getOffset(): number {
  return offsetMs;
}

// ---------------------------------------------------------------- the shared ticker

/** Milliseconds until the next whole second of `t`, never less than `minGap` (a timer may fire a hair early). */
export function msToNextSecond(t: number, minGap = 20): number {
  const d = 1000 - (((t % 1000) + 1000) % 1000);
  return d < minGap ? d + 1000 : d;
}

export interface Ticker {
  /** A number that changes on every tick (the useSyncExternalStore snapshot). */
  get(): number;
  subscribe(listener: () => void): () => void;
  /** Notifies at once (offset changed); the timer keeps its rhythm. */
  bump(): void;
  /** How many listeners are attached (tests). */
  size(): number;
}

/**
 * One timer for every subscriber, firing on the whole seconds of `clock()` (server time), so a countdown
 * changes its text at the same moment as the server's clock. Runs only while someone listens.
 */
export function createTicker(clock: () => number = now): Ticker {
  const listeners = new Set<() => void>();
  let beat = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const emit = () => {
    beat += 1;
    for (const l of [...listeners]) l();
  };
  const schedule = () => {
    timer = setTimeout(() => {
      timer = undefined;
      emit();
      if (listeners.size > 0) schedule();
    }, msToNextSecond(clock()));
  };
  return {
    get: () => beat,
    subscribe(listener) {
      listeners.add(listener);
      if (timer === undefined) schedule();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer !== undefined) {
          clearTimeout(timer);
          timer = undefined;
        }
      };
    },
    bump: emit,
    size: () => listeners.size,
  };
}

/** The app's ticker: every Countdown on a page shares it. */
export const ticker = createTicker();

/** Re-renders the caller on every whole second of server time (and when the offset changes). */
export function useTick(t: Ticker = ticker): number {
  return useSyncExternalStore(t.subscribe, t.get, t.get);
}

import { useSyncExternalStore } from 'react';

/** A tiny observable value for the live layer's UI state (status, toasts, extended auctions). */
export interface Store<T> {
  get(): T;
  set(next: T | ((prev: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      const v = typeof next === 'function' ? (next as (p: T) => T)(value) : next;
      if (Object.is(v, value)) return;
      value = v;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** Adds `id` to (or removes it from) a store of ids; the same set when nothing changes. */
export function setMember(store: Store<ReadonlySet<number>>, id: number, on: boolean): void {
  store.set((s) => {
    if (s.has(id) === on) return s;
    const copy = new Set(s);
    if (on) copy.add(id);
    else copy.delete(id);
    return copy;
  });
}

export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

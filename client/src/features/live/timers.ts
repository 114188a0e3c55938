/** The live layer's own timeouts (restored status, retries, toasts), cleared together when it stops. */
export class Timers {
  private pending = new Set<ReturnType<typeof setTimeout>>();

  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.pending.delete(t);
      fn();
    }, ms);
    this.pending.add(t);
  }

  clear(): void {
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
  }
}

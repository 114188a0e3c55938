// Benchmarks only (the soak row, scripts/bench/lib/soak.ts): preloaded with `node --import` into the measured
// server. Every $BENCH_LOOP_EVERY_MS (default 1000) it appends one JSON line to $BENCH_LOOP_FILE: the time, the
// resident set size and V8's heap in use, and the event-loop delay since the previous line (perf_hooks'
// monitorEventLoopDelay: mean, p50, p99, max, in ms). It loads nothing that Node has not loaded already.

import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const out = process.env.BENCH_LOOP_FILE;
if (out) {
  const every = Number(process.env.BENCH_LOOP_EVERY_MS ?? 1000);
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const ms = (ns) => Math.round((ns / 1e6) * 100) / 100;
  setInterval(() => {
    const m = process.memoryUsage();
    const line = { t: Date.now(), rss: m.rss, heapUsed: m.heapUsed, mean: ms(h.mean), p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) };
    h.reset();
    fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
  }, every).unref();
}

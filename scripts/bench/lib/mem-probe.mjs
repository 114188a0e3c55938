// Benchmarks only (B6g, scripts/bench/lib/memory-on-grown-db.ts): preloaded with `node --import` into the measured server and
// into the bare socket.io baseline. On SIGUSR2 it writes where the process's memory is to $BENCH_MEM_FILE:
// process.memoryUsage() (V8 heap, external, array buffers), V8's heap spaces, and /proc/self/status's
// RssAnon / RssFile. It loads nothing that Node has not loaded already and does nothing until signalled.

import fs from 'node:fs';
import v8 from 'node:v8';

process.on('SIGUSR2', () => {
  const out = process.env.BENCH_MEM_FILE;
  if (!out) return;
  let status = '';
  try {
    status = fs.readFileSync('/proc/self/status', 'utf8');
  } catch {
    // not Linux
  }
  const kb = (name) => {
    const m = new RegExp(`${name}:\\s+(\\d+) kB`).exec(status);
    return m ? Number(m[1]) * 1024 : null;
  };
  const report = {
    memory: process.memoryUsage(),
    status: { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile'), shmem: kb('RssShmem') },
    heap: v8.getHeapStatistics(),
    spaces: v8.getHeapSpaceStatistics().map((s) => ({ name: s.space_name, size: s.space_size, used: s.space_used_size })),
  };
  fs.writeFileSync(`${out}.tmp`, JSON.stringify(report));
  fs.renameSync(`${out}.tmp`, out);
});

// `node --import ./scripts/bench/lib/held-preload.mjs …` (b2-tail.ts with B2_TAIL_HELD=1; docs/performance.md,
// "B2 / B7"): inside the server, per POST of a bid (Aukcije's /api/bids/, bare socket.io's /bid), the wall-clock
// time from its 'request' event to the first socket write after it (the broadcast's first frame: "held"), from
// that to the last write before its answer ("spread": the broadcast), and from there to the answer's finish; the
// socket writes in between, and the V8 GC pauses (PerformanceObserver 'gc') that fell inside the held time and
// inside the spread, and every GC pause of the run by kind. The first FIRST bids after a pause of at least
// PAUSE_MS (a round's start: the joins came just before) are summarised apart from the rest. Only Node's own
// http and net are patched, so it measures a bundled server and bare socket.io alike, from inside, without the
// load generator's own delays. On SIGTERM it appends one JSON line to HELD_OUT.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { PerformanceObserver, constants, performance } from 'node:perf_hooks';

const PAUSE_MS = 1000;
const FIRST = 5;
const now = () => performance.now();
const rows = [];
/** GC pauses as [start, end] in performance.now() time, and their durations by kind (minor, major, …). */
const gcs = [];
const gcByKind = {};
const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
let current = null;
let lastEnd = -Infinity;
let sincePause = 0;

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcs.push([e.startTime, e.startTime + e.duration]);
    (gcByKind[GC_KINDS[e.detail?.kind] ?? 'other'] ??= []).push(e.duration);
  }
}).observe({ entryTypes: ['gc'] });

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res, ...rest) {
  if (event === 'request' && req.method === 'POST' && (req.url.startsWith('/api/bids') || req.url.startsWith('/bid'))) {
    const start = now();
    if (start - lastEnd >= PAUSE_MS) sincePause = 0;
    const row = { start, first: 0, last: 0, writes: 0, end: 0, early: sincePause++ < FIRST };
    current = row;
    res.once('finish', () => {
      row.end = now();
      lastEnd = row.end;
      rows.push(row);
      if (current === row) current = null;
    });
  }
  return emit.apply(this, [event, req, res, ...rest]);
};

function counted(write) {
  return function (...args) {
    const row = current;
    if (row) {
      const t = now();
      if (!row.first) row.first = t;
      row.last = t;
      row.writes++;
    }
    return write.apply(this, args);
  };
}
// A frame of two buffers is written corked (`_writev`), a frame of one with a plain `_write`.
net.Socket.prototype._writev = counted(net.Socket.prototype._writev);
net.Socket.prototype._write = counted(net.Socket.prototype._write);

/** ms of GC pauses inside [from, to]. */
const gcWithin = (from, to) => gcs.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(b, to) - Math.max(a, from)), 0);
const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
const summary = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: at(s, 0.5), p90: at(s, 0.9) };
};
const summarise = (done) => ({
  bids: done.length,
  held: summary(done.map((r) => r.first - r.start)),
  spread: summary(done.map((r) => r.last - r.first)),
  answer: summary(done.map((r) => r.end - r.last)),
  writes: summary(done.map((r) => r.writes)),
  gcHeld: summary(done.map((r) => gcWithin(r.start, r.first))),
  gcSpread: summary(done.map((r) => gcWithin(r.first, r.last))),
});

process.on('SIGTERM', () => {
  const done = rows.filter((r) => r.first);
  if (!process.env.HELD_OUT || !done.length) return;
  const early = done.filter((r) => r.early);
  const gc = Object.fromEntries(
    Object.entries(gcByKind).map(([kind, ms]) => [kind, { n: ms.length, totalMs: ms.reduce((a, b) => a + b, 0), ...summary(ms) }]),
  );
  const line = { server: process.argv[1], all: summarise(done), early: early.length ? summarise(early) : null, later: summarise(done.filter((r) => !r.early)), gc };
  fs.appendFileSync(process.env.HELD_OUT, `${JSON.stringify(line)}\n`);
});

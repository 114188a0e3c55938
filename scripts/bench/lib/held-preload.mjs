// `node --import ./scripts/bench/lib/held-preload.mjs …` (b2-tail.ts with B2_TAIL_HELD=1; docs/performance.md,
// "B2 / B7"): inside the server, per POST of a bid (Aukcije's /api/bids/, bare socket.io's /bid), the wall-clock
// time from its 'request' event to the first socket write after it (the broadcast's first frame: "held"), from
// that to the last write before its answer ("spread": the broadcast), and from there to the answer's finish.
// Only Node's own http and net are patched, so it measures a bundled server and bare socket.io alike, from inside,
// without the load generator's own delays. On SIGTERM it appends one JSON line to HELD_OUT.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';

const now = () => Number(process.hrtime.bigint()) / 1e6;
const rows = [];
let current = null;

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res, ...rest) {
  if (event === 'request' && req.method === 'POST' && (req.url.startsWith('/api/bids') || req.url.startsWith('/bid'))) {
    const row = { start: now(), first: 0, last: 0, writes: 0, end: 0 };
    current = row;
    res.once('finish', () => {
      row.end = now();
      rows.push(row);
      if (current === row) current = null;
    });
  }
  return emit.apply(this, [event, req, res, ...rest]);
};

const writev = net.Socket.prototype._writev;
net.Socket.prototype._writev = function (...args) {
  const row = current;
  if (row) {
    const t = now();
    if (!row.first) row.first = t;
    row.last = t;
    row.writes++;
  }
  return writev.apply(this, args);
};

const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
const summary = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: at(s, 0.5), p90: at(s, 0.9) };
};

process.on('SIGTERM', () => {
  const done = rows.filter((r) => r.first);
  if (!process.env.HELD_OUT || !done.length) return;
  const line = {
    server: process.argv[1],
    bids: done.length,
    held: summary(done.map((r) => r.first - r.start)),
    spread: summary(done.map((r) => r.last - r.first)),
    answer: summary(done.map((r) => r.end - r.last)),
    writes: summary(done.map((r) => r.writes)).p50,
  };
  fs.appendFileSync(process.env.HELD_OUT, `${JSON.stringify(line)}\n`);
});

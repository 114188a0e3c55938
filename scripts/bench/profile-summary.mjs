#!/usr/bin/env node
// Summarises a V8 .cpuprofile (node --cpu-prof; BENCH_PROFILE_DIR=dir npm run bench -- --only=B1):
// self time by package/module and the hottest functions.  node scripts/bench/profile-summary.mjs <file> [top=25]
import fs from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/bench/profile-summary.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + prof.timeDeltas[i]));
const total = prof.timeDeltas.reduce((a, b) => a + b, 0);
const byModule = new Map();
const byFn = new Map();
for (const [id, us] of self) {
  const cf = nodes.get(id).callFrame;
  let url = cf.url || `(${cf.functionName})`;
  url = url.replace(/.*node_modules\//, 'nm/').replace(/^file:\/\/.*?\/(dist|server|shared)\//, '$1/');
  const parts = url.split('/');
  const mod = url.startsWith('nm/') ? parts.slice(0, url.startsWith('nm/@') ? 3 : 2).join('/') : url;
  byModule.set(mod, (byModule.get(mod) ?? 0) + us);
  const fn = `${cf.functionName || '(anonymous)'} ${url}:${cf.lineNumber + 1}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
console.log(`total ${(total / 1000).toFixed(0)} ms sampled`);
console.log('\nself time by module:');
for (const [k, v] of [...byModule].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
console.log('\nhottest functions (self):');
for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);

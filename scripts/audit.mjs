#!/usr/bin/env node
// `npm audit --omit=dev --audit-level=high` for CI (issue 7 §11): fails on high or critical advisories in
// the production dependencies; when the registry's audit endpoint cannot be reached or refuses the
// request (offline machine, mirror without the audit API), prints "skipped: audit endpoint unreachable"
// and succeeds — unless AUDIT_STRICT=1 (or --strict), which turns a skip into a failure.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const strict = process.argv.includes('--strict') || process.env.AUDIT_STRICT === '1';
const args = ['audit', '--omit=dev', '--audit-level=high', '--json'];

// AUDIT_REPORT_FILE: read a saved `npm audit --json` answer instead of asking (tests of this script).
const r = process.env.AUDIT_REPORT_FILE
  ? { stdout: (await import('node:fs')).readFileSync(process.env.AUDIT_REPORT_FILE, 'utf8'), stderr: '' }
  : spawnSync('npm', args, { cwd: root, encoding: 'utf8', timeout: 90_000, maxBuffer: 64 * 1024 * 1024 });

function skip(reason) {
  const line = `npm audit: skipped: audit endpoint unreachable (${reason})`;
  if (strict) {
    console.error(`✗ ${line} — AUDIT_STRICT=1 requires a real answer`);
    process.exit(2);
  }
  console.log(`⚠ ${line}`);
  process.exit(0);
}

if (r.error) skip(r.error.code === 'ETIMEDOUT' ? 'no answer within 90 s' : r.error.message);

let report;
try {
  report = JSON.parse(r.stdout || 'null');
} catch {
  skip(`unreadable answer: ${(r.stderr || r.stdout || '').trim().split('\n').pop()?.slice(0, 200) ?? ''}`);
}
if (!report || typeof report !== 'object') skip('empty answer');

// npm prints the failed HTTP exchange (statusCode/message) or {error: {code, summary}} instead of a report.
const counts = report.metadata?.vulnerabilities;
if (!counts) {
  const why = report.message ?? report.error?.summary ?? report.error?.code ?? (r.stderr || '').trim().split('\n').pop() ?? 'no report';
  skip(String(why).slice(0, 200));
}

const serious = Object.entries(report.vulnerabilities ?? {}).filter(([, v]) => v.severity === 'high' || v.severity === 'critical');
if (serious.length > 0 || (counts.high ?? 0) + (counts.critical ?? 0) > 0) {
  console.error(`✗ npm audit: ${counts.critical ?? 0} critical, ${counts.high ?? 0} high in production dependencies:`);
  for (const [name, v] of serious) {
    const via = (v.via ?? []).map((x) => (typeof x === 'string' ? x : `${x.title ?? ''} ${x.url ?? ''}`.trim())).join('; ');
    console.error(`  - ${name} (${v.severity}, ${v.range ?? ''}): ${via}${v.fixAvailable ? ' — fix available' : ''}`);
  }
  process.exit(1);
}
const minor = (counts.low ?? 0) + (counts.moderate ?? 0);
console.log(`✓ npm audit: no high or critical advisories in production dependencies${minor ? ` (${minor} low/moderate)` : ''}`);

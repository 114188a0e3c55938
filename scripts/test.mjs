#!/usr/bin/env node
// `npm test`: every suite (server, shared, client components, browser) — quick forms; `--full` for the long ones.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './ensure-test-deps.mjs';
import { ensurePostgres, ensureRedis } from './ensure-services.mjs';
import { buildAll } from './build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const full = process.argv.includes('--full');
const env = { ...process.env, TEST_FULL: full ? '1' : '0' };

const totals = { passed: 0, failed: 0, skipped: 0 };
const reportDir = path.join(root, 'artifacts', 'test-reports');
fs.mkdirSync(reportDir, { recursive: true });

/** Adds a vitest JSON report's counts to the totals printed at the end. */
function count(reportFile) {
  try {
    const r = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
    totals.passed += r.numPassedTests ?? 0;
    totals.failed += r.numFailedTests ?? 0;
    totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  } catch {
    // no report: the suite failed before reporting, which run() already turned into a failure
  }
}

function printTotals() {
  console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
}

function run(cmd, args) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${r.status})`);
    printTotals();
    process.exit(r.status || 1);
  }
}

function vitest(name, extra = [], command = ['npx', 'vitest', 'run']) {
  const report = path.join(reportDir, `${name}.json`);
  fs.rmSync(report, { force: true });
  const args = [...command.slice(1), ...extra, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  console.log(`\n$ ${command[0]} ${args.join(' ')}`);
  const r = spawnSync(command[0], args, { stdio: 'inherit', env });
  count(report);
  if (r.status !== 0) {
    console.error(`\n✗ vitest (${name}) failed (exit ${r.status})`);
    printTotals();
    process.exit(r.status || 1);
  }
}

ensureChromium();
try {
  await ensurePostgres();
  await ensureRedis();
} catch (err) {
  console.error(`\n✗ ${err.message}`);
  process.exit(1);
}
run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
run('npm', ['run', 'lint']); // eslint (layers, SQL only in repositories, 60-line functions) and jscpd (8+ lines)
run('node', ['scripts/audit.mjs']); // fails on high/critical advisories; an unreachable audit endpoint is a printed skip
// Build first: the bench smoke (B5) and the browser tests need the production client.
await buildAll({ quiet: true });
vitest('unit-and-server');
// The server, security and reliability suites again, on PostgreSQL (scripts/test-pg.mjs: a database per test server).
vitest('postgres', [], ['node', 'scripts/test-pg.mjs']);
vitest('browser', ['--config', 'vitest.e2e.config.ts']);
console.log('\nSvi testovi su prošli.');
printTotals();

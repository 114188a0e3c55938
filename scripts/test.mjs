#!/usr/bin/env node
// `npm test`: every suite (server, shared, client components, browser) — quick forms; `--full` for the long ones.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './ensure-test-deps.mjs';
import { buildAll } from './build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const full = process.argv.includes('--full');
const env = { ...process.env, TEST_FULL: full ? '1' : '0' };

function run(cmd, args) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
}

ensureChromium();
run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
run('node', ['scripts/audit.mjs']); // fails on high/critical advisories; an unreachable audit endpoint is a printed skip
// Build first: the bench smoke (B5) and the browser tests need the production client.
await buildAll({ quiet: true });
run('npx', ['vitest', 'run']);
run('npx', ['vitest', 'run', '--config', 'vitest.e2e.config.ts']);
console.log('\nSvi testovi su prošli.');

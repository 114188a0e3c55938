/** scripts/audit.mjs (issue 7 §11): fails on high/critical, passes clean reports, skips an unreachable endpoint. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const script = path.resolve(__dirname, '../../scripts/audit.mjs');

function run(report: unknown, env: Record<string, string> = {}) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'audit-')), 'report.json');
  fs.writeFileSync(file, typeof report === 'string' ? report : JSON.stringify(report));
  const r = spawnSync(process.execPath, [script], { env: { ...process.env, AUDIT_STRICT: '', ...env, AUDIT_REPORT_FILE: file }, encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

const meta = (v: Record<string, number>) => ({ metadata: { vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 0, ...v } } });

describe('scripts/audit.mjs', () => {
  it('fails on a high or critical advisory and names the package', () => {
    const r = run({
      ...meta({ high: 1 }),
      vulnerabilities: { 'zlo-paket': { severity: 'high', range: '<1.2.3', via: [{ title: 'Prototype pollution', url: 'https://github.com/advisories/GHSA-x' }], fixAvailable: true } },
    });
    expect(r.code).toBe(1);
    expect(r.out).toContain('zlo-paket');
    expect(r.out).toContain('Prototype pollution');
    expect(run({ ...meta({ critical: 2 }), vulnerabilities: {} }).code).toBe(1);
  });

  it('passes with only low/moderate advisories', () => {
    const r = run({ ...meta({ low: 1, moderate: 2 }), vulnerabilities: { a: { severity: 'moderate', via: [] } } });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/no high or critical/);
  });

  it('an unreachable or refusing endpoint is a clearly printed skip (a failure with AUDIT_STRICT=1)', () => {
    const refused = { message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk', statusCode: 405 };
    for (const report of [refused, { error: { code: 'ENOTFOUND', summary: 'getaddrinfo ENOTFOUND registry.npmjs.org' } }, 'not json']) {
      const r = run(report);
      expect(r.code).toBe(0);
      expect(r.out).toContain('skipped: audit endpoint unreachable');
    }
    expect(run(refused, { AUDIT_STRICT: '1' }).code).toBe(2);
  });
});

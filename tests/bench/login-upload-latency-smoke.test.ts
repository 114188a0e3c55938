/**
 * Smoke version of the B6g login and B6g upload rows (issue 21, scripts/bench/lib/memory-on-grown-db.ts): on a
 * fresh server, logins and photo uploads one at a time, timed by wall clock and by the server's CPU. No timing
 * goal is asserted.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { timeLoginsAndUploads } from '../../scripts/bench/lib/memory-on-grown-db';
import { buildState, freshDataDir, startServer } from '../../scripts/bench/lib/proc';

const dir = freshDataDir('latency-smoke');

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('B6g login / upload (smoke)', () => {
  it('times logins and 1600×1200 JPEG uploads one at a time, with the server CPU per request', { timeout: 60_000 }, async () => {
    const server = await startServer({ dataDir: dir, source: buildState() === 'missing' });
    try {
      const t = await timeLoginsAndUploads(server.url, dir, 2, 'latency', server.pid);
      expect(t.loginMs).toHaveLength(2);
      expect(t.uploadMs).toHaveLength(2);
      for (const ms of [...t.loginMs, ...t.uploadMs]) expect(ms).toBeGreaterThan(0);
      if (process.platform === 'linux') expect(t.loginCpuMs + t.uploadCpuMs).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  });
});

/**
 * Free ports and temporary folders for the servers that tests and benchmarks start.
 *
 * scripts/lib/harness/ is the one harness both use: tests/support builds its test servers, PostgreSQL databases
 * and Redis prefixes on it, and so does scripts/bench. It lives under scripts/ because the tests already import
 * scripts/ (tests/bench) while the bench, which `npm run bench` runs outside vitest, imports nothing from tests/
 * (tests/support pulls in vitest). No lint rule covers scripts/ or tests/ (dependency-cruiser and aukcije/layers
 * watch server/, client/src and shared/); these modules import only Node, `pg` and `redis` (both lazily).
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A new, empty folder under the system's temp directory whose name starts with `prefix` (a DATA_DIR, a MEDIA_DIR). */
export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

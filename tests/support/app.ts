import fs from 'node:fs';
import type { Logger } from 'pino';
import path from 'node:path';
import { loadConfig } from '../../server/config';
import { createApp, type App } from '../../server/app';
import { freePort, tempDir } from '../../scripts/lib/harness/ports';
import { serverEnv } from '../../scripts/lib/harness/server-process';
import { onPostgres, releaseTestDatabase, testDatabaseFor } from './pg';

export interface TestServer {
  server: App;
  url: string;
  dataDir: string;
  ctx: App['ctx'];
  /** The .eml files written to DATA_DIR/outbox, oldest first, as text. */
  outbox(): { file: string; text: string }[];
  close(): Promise<void>;
}

export { freePort };

export function tempDataDir(prefix = 'aukcije-test-'): string {
  return tempDir(prefix);
}

/**
 * Starts the real app (createApp) on a fresh SQLite file in a temp DATA_DIR, listening on 127.0.0.1:0; with
 * TEST_DB=pg (`npm run test:pg`) on a fresh PostgreSQL database of its own instead (tests/support/pg.ts).
 * `env` overrides any variable of design.md §2; `opts.logger` replaces the server's logger (e.g. to read its lines).
 */
export async function startTestServer(env: Record<string, string> = {}, opts: { dataDir?: string; logger?: Logger } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDataDir();
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const pgEnv = onPostgres ? { DATABASE_URL: await testDatabaseFor(dataDir) } : {};
  const config = loadConfig({
    ...pgEnv,
    ...serverEnv(port, dataDir, 'silent'),
    SESSION_SECRET: 'test-secret-test-secret-test-secret',
    ...env,
  });
  const server = await createApp({ config, ...(opts.logger ? { logger: opts.logger } : {}) });
  await server.listen(port, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  return {
    server,
    url,
    dataDir,
    ctx: server.ctx,
    outbox: () => readOutbox(dataDir),
    close: async () => {
      await server.close();
      if (onPostgres) releaseTestDatabase(dataDir);
    },
  };
}

/** The mails the server wrote to DATA_DIR/outbox (no SMTP_URL), oldest first, decoded. */
export function readOutbox(dataDir: string): { file: string; text: string }[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => ({ file: f, text: decodeEml(fs.readFileSync(path.join(dir, f), 'utf8')) }));
}

/** Undoes quoted-printable soft breaks and escapes so tests can find links in a mail. */
export function decodeEml(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, readOutbox, tempDataDir } from '../../support/app';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface E2EServer {
  url: string;
  port: number;
  dataDir: string;
  /** The .eml files in DATA_DIR/outbox, oldest first, decoded. */
  outbox(): { file: string; text: string }[];
  /** Waits until a mail to `to` containing `contains` arrives; returns its text. */
  waitForMail(to: string, contains?: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the production build (`node dist/server/index.js`, cwd = repo root) on a free port with a fresh
 * DATA_DIR and waits for GET /api/user/status/. Build first: `node scripts/build.mjs`.
 */
export async function startE2EServer(env: Record<string, string> = {}): Promise<E2EServer> {
  const entry = path.join(root, 'dist/server/index.js');
  if (!fs.existsSync(entry) || !fs.existsSync(path.join(root, 'dist/client/index.html'))) {
    throw new Error('Nema produkcionog builda: pokrenite `node scripts/build.mjs` pre browser testova.');
  }
  const port = await freePort();
  const dataDir = tempDataDir('aukcije-e2e-');
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '0',
      SHUTDOWN_DRAIN_SECONDS: '0',
      SMTP_URL: '',
      GOOGLE_CLIENT_ID: '',
      GOOGLE_CLIENT_SECRET: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d) => (log = (log + String(d)).slice(-8000)));
  child.stderr?.on('data', (d) => (log = (log + String(d)).slice(-8000)));
  let exited = false;
  child.once('exit', () => (exited = true));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`Server se ugasio pri pokretanju:\n${log}`);
    try {
      const r = await fetch(`${url}/api/user/status/`);
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Server nije odgovorio za 60 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  const outbox = () => readOutbox(dataDir);

  return {
    url,
    port,
    dataDir,
    outbox,
    async waitForMail(to, contains, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const mail = outbox()
          .reverse()
          .find((m) => m.text.toLowerCase().includes(to.toLowerCase()) && (!contains || m.text.includes(contains)));
        if (mail) return mail.text;
        if (Date.now() > end) throw new Error(`Nema emaila za ${to}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close() {
      return new Promise<void>((resolve) => {
        if (exited) return resolve();
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(t);
          fs.rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      });
    },
  };
}

/** The first link in a mail that contains `fragment` (e.g. '/api/verify/'). */
export function linkFrom(mail: string, fragment: string): string {
  const m = mail.match(new RegExp(`https?://[^\\s"<>]*${fragment.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[^\\s"<>]*`));
  if (!m) throw new Error(`Link sa ${fragment} nije u emailu:\n${mail.slice(0, 2000)}`);
  return m[0];
}

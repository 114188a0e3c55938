/**
 * Issue 29, "Backups": `npm run backup -- FILE` taken while the real server (a child process) takes bids, with
 * MEDIA_DIR outside DATA_DIR and a generated session secret; `npm run restore -- FILE DATA_DIR` into a fresh
 * DATA_DIR (and MEDIA_DIR). The restored database passes PRAGMA integrity_check and holds every bid
 * acknowledged before the backup began; a server started on it accepts the old session cookie and serves
 * the same images. A restore into a DATA_DIR that is not empty is refused and changes nothing. PostgreSQL
 * installations use pg_dump / pg_restore instead: pg-backup.test.ts.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { hashPassword } from '../../server/features/accounts/passwords';
import { openDatabase } from '../../server/db/connection';
import { freePort, tempDataDir } from '../support/app';
import { ApiClient } from '../support/http';
import { sleep } from '../support/sockets';
import { rng } from '../support/reliability-load';
import { buildServerBundle, insertAuction, insertUser, removeBundle, spawnServer, type ChildServer } from '../support/reliability-server';
import { auctionForm, uploadImages } from '../support/security-world';
import { describeSqliteOnly } from '../support/pg';

const root = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'Lozinka123';
const BIDDERS = 4;

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const f of cleanup.reverse()) await f();
});

/** `npm run <script> -- args` in the project with `env` (PATH and HOME added); resolves with its exit code and output. */
function npmRun(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const dirOf = (prefix: string) => {
  const dir = tempDataDir(prefix);
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

describeSqliteOnly("the backup is SQLite's online backup API; pg-backup.test.ts covers pg_dump", 'npm run backup / npm run restore', () => {
  it('a backup under bid load restores whole: integrity, every bid acknowledged before it, sessions, images', async () => {
    const bundle = await buildServerBundle('backup');
    cleanup.push(() => removeBundle(bundle));
    const dataDir = dirOf('aukcije-backup-data-');
    const mediaDir = dirOf('aukcije-backup-media-');
    // SESSION_SECRET empty: the server generates DATA_DIR/session-secret, which the backup must carry.
    const env = { MEDIA_DIR: mediaDir, SESSION_SECRET: '' };
    const server: ChildServer = await spawnServer(bundle, dataDir, await freePort(), env);
    cleanup.push(() => server.kill9());
    expect(fs.existsSync(path.join(dataDir, 'session-secret'))).toBe(true);

    const setup = openDatabase(path.join(dataDir, 'aukcije.sqlite'));
    const hash = await hashPassword(PASSWORD);
    const seller = await insertUser(setup, 'Prodavac Kopija', hash);
    const people = [];
    for (let i = 0; i < BIDDERS; i++) people.push(await insertUser(setup, `Licitant Kopija ${i + 1}`, hash));
    const other = await insertAuction(setup, seller.id, 'Kopija bez slike', Date.now() + 3600_000);
    await setup.close();
    const login = async (email: string) => {
      const api = new ApiClient(server.url);
      expect((await api.post('/api/login/', { email, password: PASSWORD })).status).toBe(200);
      await api.ensureCsrf();
      return api;
    };
    // An auction with a picture, through the API: the image lands in MEDIA_DIR, outside DATA_DIR.
    const sellerApi = await login(seller.email);
    const created = await sellerApi.post('/api/auctionItems/', auctionForm({ title: 'Kopija sa slikom', current_price: '1000' }));
    expect(created.status).toBe(201);
    const pictured = created.body.id;
    await uploadImages(sellerApi, pictured, 1);
    const imageUrl = ((await sellerApi.get(`/api/auction/${pictured}/`)).body.images[0] as { image: string }).image;
    const image = Buffer.from(await (await fetch(server.url + imageUrl)).arrayBuffer());
    expect(image.length).toBeGreaterThan(0);
    const clients = await Promise.all(people.map(async (p) => ({ id: p.id, api: await login(p.email) })));

    const hot = [pictured, other];
    type Sent = { at: number; bidder: number; auction: number; amount: number; id?: number };
    const acked: Sent[] = [];
    const known = new Map(hot.map((id) => [id, 1000]));
    const rand = rng(2930);
    let over = false;
    const load = Promise.all(
      clients.map(async (c) => {
        while (!over) {
          const auction = hot[Math.floor(rand() * hot.length)];
          const amount = known.get(auction)! + 10 * (1 + Math.floor(rand() * 3));
          const res = await c.api.post('/api/bids/', { auction_item_id: auction, amount });
          expect([201, 400]).toContain(res.status);
          if (res.status === 201) {
            acked.push({ at: performance.now(), bidder: c.id, auction, amount, id: res.body.id });
            known.set(auction, Math.max(known.get(auction)!, res.body.current_price));
          } else known.set(auction, Math.max(known.get(auction)!, (res.body as { current_price?: number }).current_price ?? 0));
        }
      }),
    );

    await sleep(600);
    const file = path.join(dirOf('aukcije-backup-file-'), 'kopija.tar');
    const before = acked.slice();
    const startedAt = performance.now();
    const made = await npmRun('backup', [file], { DATA_DIR: dataDir, MEDIA_DIR: mediaDir });
    const endedAt = performance.now();
    await sleep(200);
    over = true;
    await load;
    expect(made, made.out).toMatchObject({ code: 0 });
    expect(made.out).toMatch(/Rezervna kopija: .*kopija\.tar/);
    const during = acked.filter((s) => s.at > startedAt && s.at < endedAt).length;
    expect(before.length).toBeGreaterThan(5);
    await server.kill9();

    // Refused: a DATA_DIR that is not empty (the original one), and nothing in it changes.
    const listing = () => fs.readdirSync(dataDir).sort().join(',');
    const was = listing();
    const refused = await npmRun('restore', [file, dataDir], { MEDIA_DIR: dirOf('aukcije-backup-unused-') });
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('nije prazan');
    expect(listing()).toBe(was);

    // Restored into a fresh DATA_DIR (a new folder) and a fresh MEDIA_DIR.
    const newData = path.join(dirOf('aukcije-restore-'), 'data');
    const newMedia = dirOf('aukcije-restore-media-');
    const restored = await npmRun('restore', [file, newData], { MEDIA_DIR: newMedia });
    expect(restored, restored.out).toMatchObject({ code: 0 });
    expect(restored.out).toContain('integrity_check: ok');
    expect(fs.readFileSync(path.join(newData, 'session-secret'), 'utf8')).toBe(fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8'));

    const h = openDatabase(path.join(newData, 'aukcije.sqlite'));
    expect(h.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    const stored = await h.db.selectFrom('bids').select(['id', 'auction_id', 'bidder_id', 'amount']).where('auction_id', 'in', hot).execute();
    await h.close();
    const byId = new Map(stored.map((b) => [b.id, b]));
    for (const s of before) expect(byId.get(s.id!), `bid ${s.id} acknowledged before the backup`).toMatchObject({ auction_id: s.auction, bidder_id: s.bidder, amount: s.amount });

    // The server on the restored data: the old session cookie still works, the image is served as before.
    const again = await spawnServer(bundle, newData, await freePort(), { MEDIA_DIR: newMedia, SESSION_SECRET: '' });
    cleanup.push(() => again.kill9());
    const sameBrowser = new ApiClient(again.url);
    for (const [k, v] of clients[0].api.cookies) sameBrowser.cookies.set(k, v);
    expect((await sameBrowser.get('/api/user/status/')).body).toEqual({ is_authenticated: true, username: 'Licitant Kopija 1' });
    const served = await fetch(again.url + imageUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
    const detail = await sameBrowser.get(`/api/auction/${pictured}/`);
    expect(detail.status).toBe(200);
    console.info(
      `[backup] ${acked.length} bids acknowledged in all, ${before.length} before the backup (all restored), ${during} while it ran (${Math.round(endedAt - startedAt)} ms, npm included); ` +
        `restored with its session secret and ${fs.readdirSync(newMedia, { recursive: true }).length} media entries`,
    );
  }, 60_000);
});

/**
 * Issue 29, "Backups", on PostgreSQL: the README's commands (section "Rezervne kopije"), run as written. pg_dump
 * while the server takes bids, MEDIA_DIR with tar; pg_restore into a new, empty database, the images into a
 * new folder; a server on them (same SESSION_SECRET) accepts the old session cookie, serves the image, and
 * holds every bid acknowledged before the dump began. SQLite installations: backup.test.ts.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAppDatabase } from '../../server/db/connection';
import { startTestServer, tempDataDir, type TestServer } from '../support/app';
import { actor } from '../support/marketplace';
import { ApiClient } from '../support/http';
import { sleep } from '../support/sockets';
import { auctionForm, uploadImages } from '../support/security-world';
import { createTestDatabase, databaseUrl, dropTestDatabase, onPostgres } from '../support/pg';

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const f of cleanup.reverse()) await f();
});

/** Runs `cmd args` (a README command); resolves with its exit code and output. */
function run(cmd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.on('error', (err) => resolve({ code: -1, out: String(err) }));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const dirOf = (prefix: string) => {
  const dir = tempDataDir(prefix);
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

describe.runIf(onPostgres)('pg_dump / pg_restore as the README gives them [PostgreSQL only: SQLite installations use npm run backup]', () => {
  it('a dump under bid load restores into a new database: every bid acknowledged before it, sessions, images', { timeout: 60_000 }, async () => {
    const mediaDir = dirOf('aukcije-pgdump-media-');
    const t: TestServer = await startTestServer({ MEDIA_DIR: mediaDir });
    cleanup.push(() => t.close());
    const url = t.ctx.config.databaseUrl!;
    const seller = await actor(t);
    const created = await seller.api.post('/api/auctionItems/', auctionForm({ title: 'Dump sa slikom' }));
    expect(created.status).toBe(201);
    const auctionId = created.body.id;
    await uploadImages(seller.api, auctionId, 1);
    const imageUrl = ((await seller.api.get(`/api/auction/${auctionId}/`)).body.images[0] as { image: string }).image;
    const image = Buffer.from(await (await fetch(t.url + imageUrl)).arrayBuffer());
    const bidders = await Promise.all([1, 2, 3].map(() => actor(t)));

    const acked: { bidder: number; amount: number; id: number }[] = [];
    let price = 1000;
    let over = false;
    const load = Promise.all(
      bidders.map(async (b) => {
        while (!over) {
          const amount = price + 10;
          const res = await b.api.post('/api/bids/', { auction_item_id: auctionId, amount });
          expect([201, 400]).toContain(res.status);
          if (res.status === 201) {
            acked.push({ bidder: b.user.id, amount, id: res.body.id });
            price = Math.max(price, res.body.current_price);
          } else price = Math.max(price, (res.body as { current_price?: number }).current_price ?? price);
        }
      }),
    );
    await sleep(400);

    // README: pg_dump --format=custom --file=aukcije.dump "$DATABASE_URL"; tar -C "$MEDIA_DIR" -cf media.tar .
    const out = dirOf('aukcije-pgdump-');
    const dump = path.join(out, 'aukcije.dump');
    const before = acked.slice();
    const dumped = await run('pg_dump', ['--format=custom', `--file=${dump}`, url]);
    await sleep(100);
    over = true;
    await load;
    expect(dumped, dumped.out).toMatchObject({ code: 0 });
    expect(before.length).toBeGreaterThan(3);
    const mediaTar = path.join(out, 'media.tar');
    expect((await run('tar', ['-C', mediaDir, '-cf', mediaTar, '.'])).code).toBe(0);

    // README: createdb …; pg_restore --no-owner --no-privileges --dbname="$NEW_DATABASE_URL" aukcije.dump; tar -C "$NEW_MEDIA_DIR" -xf media.tar
    const name = await createTestDatabase({ unmigrated: true });
    cleanup.push(() => dropTestDatabase(name));
    const restoredUrl = databaseUrl(name);
    const restored = await run('pg_restore', ['--no-owner', '--no-privileges', `--dbname=${restoredUrl}`, dump]);
    expect(restored, restored.out).toMatchObject({ code: 0 });
    const newMedia = dirOf('aukcije-pgrestore-media-');
    expect((await run('tar', ['-C', newMedia, '-xf', mediaTar])).code).toBe(0);

    const h = await openAppDatabase({ databaseUrl: restoredUrl, file: '' });
    const stored = await h.db.selectFrom('bids').select(['id', 'bidder_id', 'amount']).where('auction_id', '=', auctionId).execute();
    await h.close();
    const byId = new Map(stored.map((b) => [b.id, b]));
    for (const s of before) expect(byId.get(s.id), `bid ${s.id} acknowledged before the dump`).toMatchObject({ bidder_id: s.bidder, amount: s.amount });

    // A node on the restored database (same SESSION_SECRET, as every node of the installation has).
    const again = await startTestServer({ DATABASE_URL: restoredUrl, MEDIA_DIR: newMedia });
    cleanup.push(() => again.close());
    const sameBrowser = new ApiClient(again.url);
    for (const [k, v] of bidders[0].api.cookies) sameBrowser.cookies.set(k, v);
    expect((await sameBrowser.get('/api/user/status/')).body).toEqual({ is_authenticated: true, username: bidders[0].user.first_name });
    const served = await fetch(again.url + imageUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
    console.info(`[backup] pg_dump under load: ${before.length} bids acknowledged before it, all restored by pg_restore; ${acked.length} in all`);
  });
});

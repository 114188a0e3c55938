import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDataDir, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { parseEml, type ParsedMail } from '../../support/eml';
import { ApiClient } from '../../support/http';
import { actor, bid, eventually, type Actor } from '../../support/marketplace';
import { unitOfWork } from '../../../server/unit-of-work';
import { notificationEvents } from '../../../server/events';
import { notifyWinner } from '../../../server/features/notifications/notifications.service';
import { insertNotification } from '../../../server/features/notifications/notifications.repository';
import { queueMailFor } from '../../../server/features/email-alerts/email-alerts.queue';
import { EMAIL_KINDS } from '@shared/rules/email-kinds';
import { isoAt } from '../../../server/lib/time';
import { userRowsWritten } from '../../support/factories';

const FAST = { MAIL_POLL_SECONDS: '0.1', MAIL_RETRY_SECONDS: '0.2' };

/** The outbox's mails to `to`, parsed as a mail client would. */
function mailsTo(t: TestServer, to: string): ParsedMail[] {
  return t
    .outbox()
    .map((m) => parseEml(fs.readFileSync(path.join(t.dataDir, 'outbox', m.file), 'utf8')))
    .filter((m) => (m.headers.get('to') ?? '').toLowerCase().includes(to.toLowerCase()));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until nothing is left to send (sent or skipped). */
async function drained(t: TestServer) {
  await eventually(async () => (await t.ctx.db.selectFrom('mail_queue').select('id').where('done_at', 'is', null).execute()).length === 0, 8000);
}

/** The first mail to `to`, once it is in the outbox. */
async function firstMailTo(t: TestServer, to: string): Promise<ParsedMail> {
  return eventually(() => mailsTo(t, to)[0]);
}

function unsubscribeUrl(mail: ParsedMail): string {
  return /^<(.+)>$/.exec(mail.headers.get('list-unsubscribe') ?? '')![1]!;
}

describe('e-mail alerts (outbox)', () => {
  let t: TestServer;
  let seller: Actor;
  beforeAll(async () => {
    t = await startTestServer({ ...FAST, SOFT_CLOSE_SECONDS: '0' });
    seller = await actor(t, { first_name: 'Sanja Prodavac' });
  });
  afterAll(async () => t.close());

  it('mails an outbid bidder: subject naming the auction, plain and HTML parts, absolute link, RFC 8058 headers', async () => {
    const [ana, bob] = await Promise.all([actor(t, { first_name: 'Ana' }), actor(t, { first_name: 'Bob' })]);
    const a = await createAuction(t.ctx, seller.user.id, { title: 'Bicikl <Scott> & kaciga' });
    expect((await bid(ana.api, a.id, 1010)).status).toBe(201);
    expect((await bid(bob.api, a.id, 1100)).status).toBe(201);
    const mail = await firstMailTo(t, ana.user.email);
    await drained(t);
    expect(mailsTo(t, ana.user.email)).toHaveLength(1);
    expect(mail.headers.get('subject')).toBe('Aukcije: Vaša ponuda je nadmašena: Bicikl <Scott> & kaciga');
    expect(mail.text).toContain('Vaša ponuda na aukciji Bicikl <Scott> & kaciga je nadmašena.');
    expect(mail.text).toContain('Nova cena: 1.100 din.');
    expect(mail.text).toContain(`${t.url}/aukcija/${a.id}`);
    expect(mail.html).toContain(`<a href="${t.url}/aukcija/${a.id}">Bicikl &lt;Scott&gt; &amp; kaciga</a>`);
    expect(mail.html).not.toContain('<Scott>');
    const unsub = unsubscribeUrl(mail);
    expect(unsub).toMatch(new RegExp(`^${t.url}/api/unsubscribe/${ana.user.id}\\.outbid\\.[A-Za-z0-9_-]{43}/$`));
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain(unsub);
    // new_bid stays in-app: the seller got notifications but no mail; nor does the bidder about their own bid.
    expect(mailsTo(t, seller.user.email)).toHaveLength(0);
    expect(mailsTo(t, bob.user.email)).toHaveLength(0);
  });

  it('mails the winner (won) and the seller (auction_ended) when the closer ends an auction', async () => {
    const [s2, ana] = await Promise.all([actor(t, { first_name: 'Milan Prodavac' }), actor(t)]);
    const a = await createAuction(t.ctx, s2.user.id, { title: 'Lampa', endsInMs: 1500 });
    expect((await bid(ana.api, a.id, 1010)).status).toBe(201);
    const bySubject = async (to: string, subject: string): Promise<ParsedMail> =>
      (await eventually(() => mailsTo(t, to).find((m) => m.headers.get('subject') === subject), 8000))!;
    const won = await bySubject(ana.user.email, 'Aukcije: Pobedili ste na aukciji: Lampa');
    const ended = await bySubject(s2.user.email, 'Aukcije: Vaša aukcija je završena: Lampa');
    expect(won.headers.get('subject')).toBe('Aukcije: Pobedili ste na aukciji: Lampa');
    expect(won.text).toContain('Čestitamo! Pobedili ste na aukciji Lampa');
    expect(ended.headers.get('subject')).toBe('Aukcije: Vaša aukcija je završena: Lampa');
    expect(ended.text).toContain('Vaša aukcija Lampa je završena.');
    expect(unsubscribeUrl(ended)).toContain(`/api/unsubscribe/${s2.user.id}.auction_ended.`);
  });

  it('mails the owner of a beaten maximum (kind outbid, its own text)', async () => {
    const [ana, bob] = await Promise.all([actor(t), actor(t)]);
    const a = await createAuction(t.ctx, seller.user.id, { title: 'Kamera' });
    expect((await ana.api.put(`/api/auctions/${a.id}/auto-bid/`, { max_amount: 2000 })).status).toBe(200);
    expect((await bid(bob.api, a.id, 2500)).status).toBe(201);
    const mail = await firstMailTo(t, ana.user.email);
    expect(mail.headers.get('subject')).toBe('Aukcije: Vaša ponuda je nadmašena: Kamera');
    expect(mail.text).toMatch(/Vaša automatska ponuda od 2\.000 din je nadmašena na aukciji Kamera|Vaša ponuda na aukciji Kamera je nadmašena/);
  });

  it('sends nothing about a member raising their own leading bid', async () => {
    const ana = await actor(t);
    const a = await createAuction(t.ctx, seller.user.id);
    await bid(ana.api, a.id, 1010);
    await bid(ana.api, a.id, 1200);
    await drained(t);
    expect(mailsTo(t, ana.user.email)).toHaveLength(0);
  });

  it('mails kinds added by other features as soon as their notification is made (here rating_received), not new_comment', async () => {
    const ana = await actor(t);
    await t.ctx.db.transaction().execute(async (tx) => {
      for (const kind of ['rating_received', 'new_comment']) {
        const n = await insertNotification(tx, { user_id: ana.user.id, auction_id: null, kind: kind as 'won', message: `Poruka ${kind}`, created_at: isoAt(Date.now()) });
        await queueMailFor(tx, n);
      }
    });
    const mail = await firstMailTo(t, ana.user.email);
    await drained(t);
    expect(mailsTo(t, ana.user.email)).toHaveLength(1);
    expect(mail.headers.get('subject')).toBe('Aukcije: Dobili ste novu ocenu');
    expect(mail.text).toContain('Poruka rating_received');
  });

  it('sends none to a member blocked by an admin or unverified, checked again at sending', async () => {
    const [blocked, unverified] = await Promise.all([actor(t), actor(t)]);
    const a = await createAuction(t.ctx, seller.user.id);
    const now = isoAt(Date.now());
    await t.ctx.db.updateTable('users').set({ blocked_at: now }).where('id', '=', blocked.user.id).execute();
    await userRowsWritten(t.ctx);
    await t.ctx.db.updateTable('users').set({ verified_at: null }).where('id', '=', unverified.user.id).execute();
    await userRowsWritten(t.ctx);
    for (const u of [blocked, unverified]) {
      await unitOfWork(t.ctx, async (tx) => [await notifyWinner(tx, u.user.id, a, 1500, { name: 'S', phone: '064' }, isoAt(Date.now()))], { events: notificationEvents });
    }
    expect(await t.ctx.db.selectFrom('mail_queue').select('id').where('user_id', 'in', [blocked.user.id, unverified.user.id]).execute()).toHaveLength(0);
    // Queued while allowed, blocked before the worker got to it: skipped.
    const late = await actor(t);
    await t.ctx.db.transaction().execute(async (tx) => {
      await notifyWinner(tx, late.user.id, a, 1500, { name: 'S', phone: '064' }, isoAt(Date.now()));
      await tx.updateTable('users').set({ blocked_at: isoAt(Date.now()) }).where('id', '=', late.user.id).execute();
    });
    await sleep(300);
    await drained(t);
    for (const u of [blocked, unverified, late]) expect(mailsTo(t, u.user.email)).toHaveLength(0);
  });

  it('respects the settings: a kind turned off is not mailed, the others are', async () => {
    const ana = await actor(t);
    const a = await createAuction(t.ctx, seller.user.id, { title: 'Sat' });
    expect((await ana.api.put('/api/notification-settings/', { email: { won: false } })).status).toBe(200);
    await unitOfWork(t.ctx, async (tx) => [await notifyWinner(tx, ana.user.id, a, 1500, { name: 'S', phone: '064' }, isoAt(Date.now()))], { events: notificationEvents });
    const bob = await actor(t);
    await bid(ana.api, a.id, 1010);
    await bid(bob.api, a.id, 1100);
    await eventually(() => mailsTo(t, ana.user.email).length > 0);
    await drained(t);
    const mails = mailsTo(t, ana.user.email);
    expect(mails.map((m) => m.headers.get('subject'))).toEqual(['Aukcije: Vaša ponuda je nadmašena: Sat']);
    // In-app notifications stay on.
    expect((await ana.api.get('/api/notifications/')).body.length).toBe(2);
  });
});

describe('GET/PUT /api/notification-settings/', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(FAST);
  });
  afterAll(async () => t.close());

  it('answers 403 when not logged in', async () => {
    const c = new ApiClient(t.url);
    expect((await c.get('/api/notification-settings/')).status).toBe(403);
    expect((await c.put('/api/notification-settings/', { email: { won: false } })).status).toBe(403);
  });

  it('has all eight kinds on for a new member; PUT takes a part and answers the whole', async () => {
    const ana = await actor(t);
    const got = await ana.api.get('/api/notification-settings/');
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ email: Object.fromEntries(EMAIL_KINDS.map((k) => [k, true])) });
    expect(Object.keys(got.body.email).sort()).toEqual(
      ['auction_ended', 'ending_soon', 'outbid', 'rating_received', 'report_resolved', 'reserve_not_met', 'saved_search', 'won'],
    );
    const put = await ana.api.put('/api/notification-settings/', { email: { outbid: false, saved_search: false } });
    expect(put.status).toBe(200);
    expect(put.body.email).toMatchObject({ outbid: false, saved_search: false, won: true, ending_soon: true });
    const back = await ana.api.put('/api/notification-settings/', { email: { outbid: true } });
    expect(back.body.email).toMatchObject({ outbid: true, saved_search: false });
    // Another member's settings are untouched.
    const bob = await actor(t);
    expect((await bob.api.get('/api/notification-settings/')).body.email.saved_search).toBe(true);
  });

  it('refuses an unknown kind or a non-boolean (400)', async () => {
    const ana = await actor(t);
    expect((await ana.api.put('/api/notification-settings/', { email: { new_bid: false } })).status).toBe(400);
    expect((await ana.api.put('/api/notification-settings/', { email: { won: 'no' } })).status).toBe(400);
    expect((await ana.api.put('/api/notification-settings/', { push: {} })).status).toBe(400);
  });
});

describe('one-click unsubscribe (RFC 8058)', () => {
  let t: TestServer;
  let seller: Actor;
  beforeAll(async () => {
    t = await startTestServer(FAST);
    seller = await actor(t);
  });
  afterAll(async () => t.close());

  async function outbidMailOf(): Promise<{ ana: Actor; bob: Actor; url: string; auctionId: number }> {
    const [ana, bob] = await Promise.all([actor(t), actor(t)]);
    const a = await createAuction(t.ctx, seller.user.id);
    await bid(ana.api, a.id, 1010);
    await bid(bob.api, a.id, 1100);
    const mail = await firstMailTo(t, ana.user.email);
    return { ana, bob, url: unsubscribeUrl(mail), auctionId: a.id };
  }

  it('turns the kind off with a POST that has no session, no CSRF token and no Origin (urlencoded)', async () => {
    const { ana, bob, url, auctionId } = await outbidMailOf();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ kind: 'outbid', email: false });
    const settings = (await ana.api.get('/api/notification-settings/')).body.email;
    expect(settings).toMatchObject({ outbid: false, won: true });
    // No more outbid mails.
    await bid(ana.api, auctionId, 1200);
    await bid(bob.api, auctionId, 1300);
    await sleep(300);
    await drained(t);
    expect(mailsTo(t, ana.user.email)).toHaveLength(1);
  });

  it('accepts a multipart body too, and answers a browser with a Serbian page', async () => {
    const { ana, url } = await outbidMailOf();
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    const res = await fetch(url, { method: 'POST', body: form, headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Odjavljeni ste.');
    expect((await ana.api.get('/api/notification-settings/')).body.email.outbid).toBe(false);
  });

  it('GET shows a Serbian page whose button POSTs, and changes nothing', async () => {
    const { ana, url } = await outbidMailOf();
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const page = await res.text();
    expect(page).toContain('Odjava od obaveštenja e-poštom');
    expect(page).toContain('„Vaša ponuda je nadmašena”');
    expect(page).toContain('<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">');
    expect(page).toContain('Odjavi me');
    expect((await ana.api.get('/api/notification-settings/')).body.email.outbid).toBe(true);
  });

  it('refuses a forged or altered token (400) and a wrong body, changing nothing', async () => {
    const { ana, url } = await outbidMailOf();
    const token = /unsubscribe\/([^/]+)\//.exec(url)![1]!;
    const [id, , mac] = token.split('.');
    const forged = [`${id}.won.${mac}`, `${Number(id) + 1}.outbid.${mac}`, `${id}.outbid.${'A'.repeat(43)}`, 'garbage', `${id}.new_bid.${mac}`];
    for (const f of forged) {
      const post = await fetch(`${t.url}/api/unsubscribe/${f}/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
      expect(post.status).toBe(400);
      expect((await post.json()).detail).toContain('Link za odjavu nije ispravan');
      expect((await fetch(`${t.url}/api/unsubscribe/${f}/`)).status).toBe(400);
    }
    const wrongBody = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=Yes' });
    expect(wrongBody.status).toBe(400);
    expect((await ana.api.get('/api/notification-settings/')).body.email).toEqual(Object.fromEntries(EMAIL_KINDS.map((k) => [k, true])));
  });
});

describe('the outbid fold (a 1.5 s window)', () => {
  let t: TestServer;
  let seller: Actor;
  beforeAll(async () => {
    t = await startTestServer({ ...FAST, OUTBID_MAIL_WINDOW_SECONDS: '1.5' });
    seller = await actor(t);
  });
  afterAll(async () => t.close());

  it('sends the first at once and folds later ones inside the window into one mail at its end', async () => {
    const [ana, bob] = await Promise.all([actor(t), actor(t)]);
    const a = await createAuction(t.ctx, seller.user.id, { title: 'Gitara' });
    const started = Date.now();
    await bid(ana.api, a.id, 1010);
    await bid(bob.api, a.id, 1100);
    await eventually(() => mailsTo(t, ana.user.email).length === 1);
    expect(Date.now() - started).toBeLessThan(1500);
    await bid(ana.api, a.id, 1200);
    await bid(bob.api, a.id, 1300);
    await bid(ana.api, a.id, 1400);
    await bid(bob.api, a.id, 1500);
    await sleep(300);
    expect(mailsTo(t, ana.user.email)).toHaveLength(1);
    await eventually(() => mailsTo(t, ana.user.email).length === 2, 5000);
    const folded = mailsTo(t, ana.user.email)[1]!;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(folded.text).toContain('Nova cena: 1.500 din.');
    expect(folded.text).toContain('nadmašena 2 puta');
    await sleep(1800);
    expect(mailsTo(t, ana.user.email)).toHaveLength(2);
  });

  it('drops the folded mail when the member leads again at the window end', async () => {
    const [ana, bob] = await Promise.all([actor(t), actor(t)]);
    const a = await createAuction(t.ctx, seller.user.id);
    await bid(ana.api, a.id, 1010);
    await bid(bob.api, a.id, 1100);
    await eventually(() => mailsTo(t, ana.user.email).length === 1);
    await bid(ana.api, a.id, 1200);
    await bid(bob.api, a.id, 1300);
    await bid(ana.api, a.id, 1400);
    await sleep(2000);
    await drained(t);
    expect(mailsTo(t, ana.user.email)).toHaveLength(1);
    const rows = await t.ctx.db.selectFrom('mail_queue').select(['outcome', 'folded']).where('user_id', '=', ana.user.id).orderBy('id').execute();
    expect(rows).toEqual([
      { outcome: 'sent', folded: 0 },
      { outcome: 'skipped', folded: 1 },
    ]);
  });
});

describe('the queue does not grow forever', () => {
  it('deletes mails that ended more than 30 days ago (at start, then hourly), keeps the rest', async () => {
    const dataDir = tempDataDir();
    const first = await startTestServer(FAST, { dataDir });
    const ana = await actor(first);
    const old = isoAt(Date.now() - 31 * 24 * 3600 * 1000);
    const recent = isoAt(Date.now() - 24 * 3600 * 1000);
    const row = { user_id: ana.user.id, auction_id: null, kind: 'won', message: 'x', created_at: old, send_after: old, outcome: 'sent' as const };
    await first.ctx.db.insertInto('mail_queue').values([{ ...row, done_at: old }, { ...row, done_at: recent }]).execute();
    await first.close();
    const second = await startTestServer(FAST, { dataDir });
    try {
      await eventually(async () => (await second.ctx.db.selectFrom('mail_queue').select('done_at').execute()).length === 1);
      expect(await second.ctx.db.selectFrom('mail_queue').select('done_at').execute()).toEqual([{ done_at: recent }]);
    } finally {
      await second.close();
    }
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDataDir, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { parseEml } from '../../support/eml';
import { startFakeSmtp, type FakeSmtp } from '../../support/fake-smtp';
import { actor, bid, eventually } from '../../support/marketplace';

const FAST = { MAIL_POLL_SECONDS: '0.1', MAIL_RETRY_SECONDS: '0.1' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const open: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const o of open.reverse()) await o.close();
});

/** Auctions where `ana` was outbid by `bob`: one outbid mail each, to ana. */
async function outbidOn(t: TestServer, n: number) {
  const [seller, ana, bob] = await Promise.all([actor(t), actor(t, { first_name: 'Ana' }), actor(t)]);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = await createAuction(t.ctx, seller.user.id, { title: `Predmet ${i}` });
    expect((await bid(ana.api, a.id, 1010)).status).toBe(201);
    // The bid is answered while the SMTP server refuses: delivery never holds it up.
    expect((await bid(bob.api, a.id, 1100)).status).toBe(201);
    ids.push(a.id);
  }
  return { ana, ids };
}

function subjects(smtp: FakeSmtp): string[] {
  return smtp.received.map((raw) => parseEml(raw).headers.get('subject') ?? '').sort();
}

describe('delivery through SMTP (a fake server on loopback)', () => {
  it('retries a refusing server with back-off: once it accepts, every mail arrives, none twice', async () => {
    const smtp = await startFakeSmtp({ refusing: true });
    open.push(smtp);
    const t = await startTestServer({ ...FAST, SMTP_URL: smtp.url });
    open.push(t);
    const { ana, ids } = await outbidOn(t, 3);
    await eventually(() => smtp.refusals >= 6, 8000);
    expect(smtp.received).toHaveLength(0);
    const rows = await t.ctx.db.selectFrom('mail_queue').selectAll().where('user_id', '=', ana.user.id).execute();
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.done_at === null && r.attempts >= 1 && r.last_error)).toBe(true);
    // Nothing of the bids or notifications was lost.
    expect((await ana.api.get('/api/notifications/')).body).toHaveLength(3);
    smtp.refusing = false;
    await eventually(() => smtp.received.length === 3, 10_000);
    await sleep(800);
    expect(subjects(smtp)).toEqual(ids.map((_, i) => `Aukcije: Vaša ponuda je nadmašena: Predmet ${i}`));
    const mail = parseEml(smtp.received[0]!);
    expect(mail.headers.get('to')).toContain(ana.user.email);
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain('je nadmašena');
    expect(mail.html).toContain('href="');
    const done = await t.ctx.db.selectFrom('mail_queue').select(['outcome', 'claimed_by']).where('user_id', '=', ana.user.id).execute();
    expect(done.every((r) => r.outcome === 'sent' && r.claimed_by === null)).toBe(true);
  });

  it('sends the mails queued before a restart once, after it', async () => {
    const smtp = await startFakeSmtp({ refusing: true });
    open.push(smtp);
    const dataDir = tempDataDir();
    const first = await startTestServer({ ...FAST, SMTP_URL: smtp.url }, { dataDir });
    const { ana } = await outbidOn(first, 2);
    await eventually(() => smtp.refusals >= 2, 8000);
    await first.close();
    const queued = smtp.refusals;
    smtp.refusing = false;
    await sleep(300);
    expect(smtp.received).toHaveLength(0);
    expect(smtp.refusals).toBe(queued);
    const second = await startTestServer({ ...FAST, SMTP_URL: smtp.url }, { dataDir });
    open.push(second);
    await eventually(() => smtp.received.length === 2, 10_000);
    await sleep(800);
    expect(smtp.received).toHaveLength(2);
    expect(smtp.received.every((raw) => (parseEml(raw).headers.get('to') ?? '').includes(ana.user.email))).toBe(true);
  });

  it('two nodes on one database send each queued mail once', async () => {
    const smtp = await startFakeSmtp({ refusing: true });
    open.push(smtp);
    const dataDir = tempDataDir();
    const a = await startTestServer({ ...FAST, SMTP_URL: smtp.url }, { dataDir });
    open.push(a);
    await outbidOn(a, 4);
    const b = await startTestServer({ ...FAST, SMTP_URL: smtp.url }, { dataDir });
    open.push(b);
    await eventually(() => smtp.refusals >= 4, 8000);
    smtp.refusing = false;
    await eventually(() => smtp.received.length >= 4, 10_000);
    await sleep(1000);
    expect(smtp.received).toHaveLength(4);
    expect(new Set(subjects(smtp)).size).toBe(4);
  });
});

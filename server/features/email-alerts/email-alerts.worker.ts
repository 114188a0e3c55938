/**
 * The mail worker (issue 27): sends queued alerts after their transaction committed. Rows are claimed under a
 * lease (email-alerts.repository.ts claimDue), so across nodes and restarts a queued mail is sent by one worker,
 * once; a failed send frees its row for a later try (back-off), so a dead SMTP server loses nothing.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { AppContext } from '../../context';
import { loadSessionSecret } from '../../lib/secret';
import { isoAt, withTimeout } from '../../lib/time';
import { emailKindOf } from '@shared/rules/email-kinds';
import { auctionForMail, claimDue, finishMail, mailAllowed, pruneDoneMails, releaseMail, type QueuedMail } from './email-alerts.repository';
import { buildAlertMail } from './email-alerts.mail';
import { configureMailQueue } from './email-alerts.queue';
import { unsubscribeTokens, type UnsubscribeTokens } from './unsubscribe-token';

const BATCH = 20;
/** A claim outlives the longest send (SEND_TIMEOUT_MS) by far: only a crashed node's rows come back. */
const LEASE_MS = 5 * 60 * 1000;
const SEND_TIMEOUT_MS = 60 * 1000;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Ended mails are kept this long (longer than any outbid window), pruned at most once an hour. */
const KEEP_DONE_MS = 30 * 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 3600 * 1000;

/** The unsubscribe tokens of this app (the session secret signs them; every node shares it). */
export function appUnsubscribeTokens(ctx: Pick<AppContext, 'config'>): UnsubscribeTokens {
  return unsubscribeTokens(loadSessionSecret(ctx.config.dataDir, ctx.config.sessionSecret));
}

/**
 * Sends one claimed mail and ends its row: skipped when it may no longer go (turned off, blocked or unverified since
 * it was queued; a folded outbid mail whose member leads again), sent, or freed for a later try (back-off).
 */
function mailSender(ctx: AppContext, node: string, tokens: UnsubscribeTokens) {
  const now = () => isoAt(Date.now());
  return async (row: QueuedMail): Promise<void> => {
    const kind = emailKindOf(row.kind);
    const to = await mailAllowed(ctx.db, row.user_id, row.kind);
    const auction = row.auction_id !== null ? await auctionForMail(ctx.db, row.auction_id, row.user_id) : undefined;
    if (!to || !kind || (row.folded === 1 && auction?.leads)) {
      await finishMail(ctx.db, row.id, node, 'skipped', now());
      return;
    }
    const mail = buildAlertMail(row, {
      to: to.email,
      publicUrl: ctx.config.publicUrl,
      auctionTitle: auction?.title ?? null,
      unsubscribeToken: tokens.issue(row.user_id, kind),
    });
    try {
      await withTimeout(ctx.mailer.send(mail), SEND_TIMEOUT_MS, 'SMTP send timed out');
    } catch (err) {
      const delay = Math.min(ctx.config.mailRetrySeconds * 1000 * 2 ** Math.max(row.attempts - 1, 0), MAX_BACKOFF_MS);
      ctx.logger.warn({ err, mail: row.id, attempts: row.attempts, retryInMs: delay }, 'e-mail alert not sent; will retry');
      await releaseMail(ctx.db, row.id, node, isoAt(Date.now() + delay), err instanceof Error ? err.message : String(err));
      return;
    }
    if (!(await finishMail(ctx.db, row.id, node, 'sent', now()))) ctx.logger.warn({ mail: row.id }, 'e-mail alert sent after its claim ran out');
  };
}

/** Starts the worker: woken by every new notification that queued a mail due now, and every MAIL_POLL_SECONDS. Returns its stop(). */
export function startMailWorker(ctx: AppContext): () => Promise<void> {
  configureMailQueue(ctx.db, { outbidWindowMs: ctx.config.outbidMailWindowSeconds * 1000 });
  const node = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  const sendOne = mailSender(ctx, node, appUnsubscribeTokens(ctx));
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let prunedAt = 0;

  const drain = async (): Promise<void> => {
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await pruneDoneMails(ctx.db, isoAt(prunedAt - KEEP_DONE_MS));
    }
    do {
      again = false;
      let batch: QueuedMail[];
      do {
        if (stopped) return;
        const nowMs = Date.now();
        batch = await claimDue(ctx.db, node, isoAt(nowMs), isoAt(nowMs + LEASE_MS), BATCH);
        for (const row of batch) await sendOne(row);
      } while (batch.length === BATCH);
    } while (again && !stopped);
  };

  const wake = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((err: unknown) => ctx.logger.error({ err }, 'mail worker failed; next poll retries'))
      .finally(() => {
        running = null;
      });
  };

  ctx.events.subscribe((events) => {
    // Only a mail due now: a notification without one, or folded into a mail sent later, would claim nothing.
    if (events.some((e) => e.type === 'notification:changed' && e.change.mailDue === true)) setImmediate(wake);
  });
  const timer = setInterval(wake, ctx.config.mailPollSeconds * 1000);
  timer.unref();
  setImmediate(wake);

  return async () => {
    stopped = true;
    clearInterval(timer);
    // The send in flight finishes and is marked, so a restart does not send it again.
    await running;
  };
}

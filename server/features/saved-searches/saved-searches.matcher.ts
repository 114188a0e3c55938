/**
 * The saved-search matcher (issue 28): after an auction's commit it claims the auction's job, finds the saved
 * searches the auction matches and notifies their owners, at most once per search per window (the hourly fold).
 * It runs beside the requests, never inside one: creating an auction only writes the job row.
 */
import type { AppContext } from '../../context';
import { notificationEvents, type NotificationChange } from '../../events';
import { isoAt } from '../../lib/time';
import { unitOfWork } from '../../unit-of-work';
import { savedSearchNotificationTexts as texts } from '@shared/texts/saved-search-notifications';
import { listShows } from '../auctions/auctions.repository';
import { listFilter } from '../auctions/auctions.service';
import { notifySavedSearch } from '../notifications/notifications.service';
import {
  addPending,
  candidatesFor,
  claimFold,
  claimImmediate,
  claimJobs,
  distinctTexts,
  dueFolds,
  findMatchAuction,
  type SavedSearchRow,
} from './saved-searches.repository';

const JOB_BATCH = 20;
const FOLD_BATCH = 100;

/**
 * The saved searches auction `auctionId` matches now: the candidates whose criteria it meets, each confirmed with
 * the public list's own predicate for those criteria (searches with the same criteria are confirmed once). A match
 * means exactly what the list would show for those filters at that moment.
 */
export async function matchingSearches(ctx: Pick<AppContext, 'db'>, auctionId: number, now: string): Promise<SavedSearchRow[]> {
  const auction = await findMatchAuction(ctx.db, auctionId);
  if (!auction) return [];
  // Substring of the normalised text, exactly as the list's `instr`/LIKE: tested here, once per distinct text.
  const texts = (await distinctTexts(ctx.db)).filter((t) => auction.search_text.includes(t));
  const candidates = await candidatesFor(ctx.db, auction, texts);
  const shown = new Map<string, boolean>();
  const out: SavedSearchRow[] = [];
  for (const s of candidates) {
    const key = JSON.stringify([s.q_text, s.category, s.min_price, s.max_price, s.city_norm]);
    let ok = shown.get(key);
    if (ok === undefined) {
      ok = await listShows(ctx.db, auctionId, listFilter({ kind: 'public' }, s, now));
      shown.set(key, ok);
    }
    if (ok) out.push(s);
  }
  return out;
}

/** Saved searches notified (or counted for their fold) per transaction: short, so requests interleave. */
const NOTIFY_BATCH = 10;

/** Lets the requests waiting on the event loop (and, on SQLite, for the one connection) go first. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Matches one created auction and notifies: a search not notified in the last window is notified now; one notified
 * inside it counts the match for its fold. In short transactions of NOTIFY_BATCH searches with a yield between
 * them: an auction matching hundreds of searches never holds the database (SQLite's one connection) long enough
 * to delay a request (the SS bench row).
 */
export async function matchAuction(ctx: AppContext, auctionId: number, nowMs = Date.now()): Promise<number> {
  const now = isoAt(nowMs);
  const matches = await matchingSearches(ctx, auctionId, now);
  const windowStart = isoAt(nowMs - ctx.config.savedSearchWindowSeconds * 1000);
  for (let i = 0; i < matches.length; i += NOTIFY_BATCH) {
    await yieldToRequests();
    const batch = matches.slice(i, i + NOTIFY_BATCH);
    await unitOfWork(
      ctx,
      async (tx) => {
        const auction = await findMatchAuction(tx, auctionId);
        const changes: NotificationChange[] = [];
        if (!auction) return changes;
        for (const s of batch) {
          if (await claimImmediate(tx, s.id, now, windowStart)) {
            changes.push(await notifySavedSearch(tx, s.user_id, auction.id, texts.matched(s.q, auction), now));
          } else {
            await addPending(tx, s.id, auction.id);
          }
        }
        return changes;
      },
      { events: notificationEvents },
    );
  }
  return matches.length;
}

/** Sends the folds whose window has ended: one notification naming how many matched, and the newest auction. */
export async function flushFolds(ctx: AppContext, nowMs = Date.now()): Promise<number> {
  const now = isoAt(nowMs);
  const due = await dueFolds(ctx.db, isoAt(nowMs - ctx.config.savedSearchWindowSeconds * 1000), FOLD_BATCH);
  if (due.length === 0) return 0;
  const changes = await unitOfWork(
    ctx,
    async (tx) => {
      const out: NotificationChange[] = [];
      for (const f of due) {
        if (!(await claimFold(tx, f.id, f.pending_count, now))) continue;
        const latest = f.pending_auction_id !== null && f.pending_title !== null ? { id: f.pending_auction_id, title: f.pending_title } : null;
        out.push(await notifySavedSearch(tx, f.user_id, latest?.id ?? null, texts.folded(f.q, f.pending_count, latest), now));
      }
      return out;
    },
    { events: notificationEvents },
  );
  return changes.length;
}

/** One pass: every waiting job (in batches), then the due folds. */
async function drain(ctx: AppContext, stopped: () => boolean): Promise<void> {
  let ids: number[];
  do {
    if (stopped()) return;
    ids = await claimJobs(ctx.db, JOB_BATCH);
    for (const id of ids) {
      await yieldToRequests();
      await matchAuction(ctx, id).catch((err: unknown) => ctx.logger.error({ err, auction: id }, 'saved-search matching failed'));
    }
  } while (ids.length === JOB_BATCH);
  while (!stopped() && (await flushFolds(ctx)) === FOLD_BATCH);
}

/** Starts the matcher: woken by every `auction:created` and every MAIL_POLL_SECONDS (folds, missed jobs). Returns its stop(). */
export function startSavedSearchMatcher(ctx: AppContext): () => Promise<void> {
  const state = { stopped: false, pending: false, pass: null as Promise<void> | null };
  const loop = async () => {
    while (state.pending && !state.stopped) {
      state.pending = false;
      await drain(ctx, () => state.stopped);
    }
  };
  // One pass at a time; a wake during a pass asks for another one after it.
  const wake = () => {
    state.pending = true;
    if (state.stopped || state.pass) return;
    const done = () => {
      state.pass = null;
      // A wake that came after the pass's last look runs now, not at the next poll.
      if (state.pending && !state.stopped) wake();
    };
    state.pass = loop().catch((err: unknown) => ctx.logger.error({ err }, 'saved-search matcher failed; next poll retries')).finally(done);
  };
  ctx.events.subscribe((events) => void (events.some((e) => e.type === 'auction:created') && setImmediate(wake)));
  const timer = setInterval(wake, ctx.config.mailPollSeconds * 1000);
  timer.unref();
  setImmediate(wake);
  return async () => {
    state.stopped = true;
    clearInterval(timer);
    await state.pass;
  };
}

/**
 * The texts of the `saved_search` notification (issue 28), server-made markup like notifications.ts: every
 * user-provided part goes through escapeHtml.
 */
import { escapeHtml } from './html';

function auctionLink(auction: { id: number; title: string }): string {
  return `<a href="/aukcija/${Number(auction.id)}">${escapeHtml(auction.title)}</a>`;
}

export const savedSearchNotificationTexts = {
  /** The in-app notification (and mail) of one new match. */
  matched(q: string | null, auction: { id: number; title: string }): string {
    return q
      ? `Nova aukcija za vašu pretragu „${escapeHtml(q)}”: ${auctionLink(auction)}`
      : `Nova aukcija za vašu sačuvanu pretragu: ${auctionLink(auction)}`;
  },
  /** The fold: the matches after the first inside the hour, sent when it ends, naming how many and the latest. */
  folded(q: string | null, count: number, latest: { id: number; title: string } | null): string {
    const head = q ? `Nove aukcije za vašu pretragu „${escapeHtml(q)}”` : 'Nove aukcije za vašu sačuvanu pretragu';
    return `${head}: još ${count} u poslednjih sat vremena${latest ? `, najnovija: ${auctionLink(latest)}` : ''}`;
  },
};

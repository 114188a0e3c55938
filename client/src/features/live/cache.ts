/**
 * Live events written into the react-query cache (conventions.md: the only cache of server state) through
 * the query options the hooks use, with the pure patches of ./patches: the detail, the bid history, the
 * comments and every cached list page that shows the auction's card; notifications and the bell's count.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AuctionCard, AuctionDetail, Paged } from '@shared/schemas/auctions';
import type { NotificationEvent } from '@shared/socket-events';
import { auctionQuery } from '../auctions/api/auction-detail';
import { auctionListsKey } from '../auctions/api/auctions-list';
import { autoBidQuery } from '../auctions/api/auto-bid';
import { bidsQuery } from '../auctions/api/bids';
import { commentsQuery } from '../auctions/api/comments';
import { notificationsQuery } from '../notifications/api/notifications';
import { unreadCountQuery } from '../notifications/api/unread-count';
import { membersKey, salesKey } from '../sales/api/keys';
import {
  addCommentOnce,
  appendBid,
  bidFields,
  closedFields,
  leaderOf,
  patchDetail,
  patchListPage,
  removeComment,
  removeFromListPage,
  upsertNotification,
} from './patches';
import type { RoomEvent } from './room-event';

type Page = Paged<AuctionCard> | undefined;

/**
 * Writes each cached list page the patch changes. An untouched page keeps its data and its age: a list one's
 * own bid marked stale (features/auctions/api/bids.ts) is still refetched when it is shown again.
 */
function patchLists(qc: QueryClient, patch: (page: Page) => Page): void {
  for (const [key, page] of qc.getQueriesData<Paged<AuctionCard>>({ queryKey: auctionListsKey })) {
    const next = patch(page);
    if (next !== page) qc.setQueryData(key, next);
  }
}

/** Applies one in-order room event to every cache entry that shows that auction. */
export function applyRoomEvent(qc: QueryClient, e: RoomEvent, detailOpen: boolean): void {
  const id = e.auction_id;
  switch (e.name) {
    case 'bid:placed': {
      const fields = bidFields(e.payload);
      qc.setQueryData(auctionQuery(id).queryKey, (d) => patchDetail(d, fields));
      qc.setQueryData(bidsQuery(id).queryKey, (list) => appendBid(list, e.payload.bid));
      patchLists(qc, (page) => patchListPage(page, id, fields));
      break;
    }
    case 'comment:created':
      qc.setQueryData(commentsQuery(id).queryKey, (list) => addCommentOnce(list, e.payload.comment));
      break;
    case 'comment:deleted':
      qc.setQueryData(commentsQuery(id).queryKey, (list) => removeComment(list, e.payload.comment_id));
      break;
    case 'auction:closed':
    case 'auction:updated': {
      const fields = e.name === 'auction:closed' ? closedFields(e.payload) : e.payload.changes;
      qc.setQueryData(auctionQuery(id).queryKey, (d) => patchDetail(d, fields));
      patchLists(qc, (page) => patchListPage(page, id, fields));
      break;
    }
    case 'auction:deleted':
      patchLists(qc, (page) => removeFromListPage(page, id));
      // An open page reads it again and shows its not-found state.
      if (detailOpen) void qc.invalidateQueries({ queryKey: auctionQuery(id).queryKey, exact: true });
      break;
  }
}

/**
 * auction:join's snapshot replaces the cached detail; the lists of that auction read by REST before we were
 * in its room may miss a change (or all of them, after a missed event): those are refetched, once.
 * Returns the detail cached before.
 */
export function applySnapshot(qc: QueryClient, id: number, auction: AuctionDetail, sentAt: number, refetchRest: boolean): AuctionDetail | undefined {
  const before = qc.getQueryData(auctionQuery(id).queryKey);
  qc.setQueryData(auctionQuery(id).queryKey, auction);
  for (const key of [commentsQuery(id).queryKey, bidsQuery(id).queryKey, autoBidQuery(id).queryKey]) {
    const st = qc.getQueryState(key);
    if (st && (refetchRest || (st.dataUpdatedAt > 0 && st.dataUpdatedAt < sentAt))) {
      void qc.invalidateQueries({ queryKey: key, exact: true });
    }
  }
  return before;
}

/** The auction as the screen knows it: its detail, else a cached card. */
export function shownAuction(qc: QueryClient, id: number): Pick<AuctionDetail, 'title' | 'end_date'> | undefined {
  const detail = qc.getQueryData(auctionQuery(id).queryKey);
  if (detail) return detail;
  for (const [, page] of qc.getQueriesData<Paged<AuctionCard>>({ queryKey: auctionListsKey })) {
    const card = page?.results?.find((a) => a.id === id);
    if (card) return card;
  }
  return undefined;
}

/** The highest bidder of a loaded history, or undefined. */
export const historyLeader = (qc: QueryClient, id: number): number | undefined => leaderOf(qc.getQueryData(bidsQuery(id).queryKey));

/** The user's own active maximum on the auction, as cached (null: none or not known). */
export const myMaximum = (qc: QueryClient, id: number): number | null => qc.getQueryData(autoBidQuery(id).queryKey)?.max_amount ?? null;

/** A row at or above the user's maximum spent it. */
export const spendMaximum = (qc: QueryClient, id: number): void => void qc.setQueryData(autoBidQuery(id).queryKey, { max_amount: null });

/** History of an open detail page, read for a logged-in user: who leads decides the outbid toast. */
export const readHistory = (qc: QueryClient, id: number): void => void qc.prefetchQuery(bidsQuery(id));

export function applyNotification(qc: QueryClient, e: NotificationEvent): void {
  qc.setQueryData(notificationsQuery().queryKey, (list) => upsertNotification(list, e.notification));
  applyUnreadCount(qc, e.unread_notifications_count);
  // The other party rated the user (issue 23): the sales pages and the profiles show it when read again.
  if (e.notification.kind === 'rating_received') {
    void qc.invalidateQueries({ queryKey: salesKey });
    void qc.invalidateQueries({ queryKey: membersKey });
  }
}

export const applyUnreadCount = (qc: QueryClient, count: number): void => void qc.setQueryData(unreadCountQuery().queryKey, count);

/** After a reconnect: events sent while we were away are not replayed, so what the screen shows is refetched. */
export function refetchAfterReconnect(qc: QueryClient): void {
  void qc.invalidateQueries({ queryKey: auctionListsKey });
  void qc.invalidateQueries({ queryKey: ['notifications'] });
}

/** A watched card missed an event: its list pages are read again. */
export const refetchLists = (qc: QueryClient | null): void => void qc?.invalidateQueries({ queryKey: auctionListsKey });

/** Unknown auction at join (deleted meanwhile): the REST read shows the page's not-found state. */
export const refetchDetail = (qc: QueryClient, id: number): void => void qc.invalidateQueries({ queryKey: auctionQuery(id).queryKey, exact: true });

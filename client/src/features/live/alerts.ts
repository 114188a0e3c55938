/**
 * What the live layer tells the user beside the cache: the outbid toast (for the previous leader), a toast
 * for each new notification, and the auctions whose end a bid moved later while their page was open.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { BidPlacedEvent } from '@shared/socket-events';
import type { BidResponse as Bid } from '@shared/schemas/bids';
import type { NotificationResponse as Notification } from '@shared/schemas/notifications';
import { historyLeader, myMaximum, shownAuction, spendMaximum } from './cache';
import { wasExtended } from './patches';
import { createStore, setMember } from './store';
import { Timers } from './timers';

export interface OutbidToast {
  id: number;
  auctionId: number;
  title: string;
  price: number;
}

/** A notification that arrived live (e.g. 'se završava za …'), shown beside the bell for a while. */
export interface NoticeToast {
  id: number;
  notificationId: number;
  auctionId: number | null;
  /** The notification's escaped markup, as in the list (sanitised when shown). */
  message: string;
}

/** What the screen showed of an auction before a bid was applied to the cache. */
export interface BeforeBid {
  title: string;
  end: string | undefined;
  leader: number | undefined;
}

const TOAST_MS = 12_000;

export class Alerts {
  /** Auctions whose end a bid moved later while the page was open (soft close). */
  readonly extended = createStore<ReadonlySet<number>>(new Set());
  readonly toasts = createStore<OutbidToast[]>([]);
  readonly notices = createStore<NoticeToast[]>([]);
  /**
   * The last bidder per followed auction as events told it: a card's history is usually not loaded, and
   * the outbid toast still needs to know who led.
   */
  private lastBidder = new Map<number, number>();
  private userId: number | null = null;
  private toastSeq = 0;
  private timers = new Timers();

  get user(): number | null {
    return this.userId;
  }

  /** Another user (or none): their toasts and what they led are forgotten. Returns whether it changed. */
  setUser(id: number | null): boolean {
    if (id === this.userId) return false;
    this.toasts.set([]);
    this.notices.set([]);
    this.lastBidder.clear();
    this.userId = id;
    return true;
  }

  /** Read before the bid is applied: the title, the end and the leader the screen knew. */
  beforeBid(qc: QueryClient, id: number): BeforeBid {
    const shown = shownAuction(qc, id);
    return { title: shown?.title ?? '', end: shown?.end_date, leader: this.lastBidder.get(id) ?? historyLeader(qc, id) };
  }

  /** After the bid is in the cache: soft close and the outbid toast. */
  bidPlaced(qc: QueryClient, p: BidPlacedEvent, before: BeforeBid, detailOpen: boolean): void {
    const id = p.auction_id;
    this.lastBidder.set(id, p.bid.bidder);
    if (detailOpen && wasExtended(before.end, p.end_date)) this.markExtended(id);
    this.outbidCheck(qc, id, p.bid, before.leader, () => ({ auctionId: id, title: before.title, price: p.current_price }));
  }

  /** The auction's room is left. */
  forget(id: number): void {
    this.lastBidder.delete(id);
  }

  /** A bid moved the end later (on: true), or the detail page closed (on: false). */
  markExtended(id: number, on = true): void {
    setMember(this.extended, id, on);
  }

  /** A new notification is shown for a while, unless the outbid toast already tells it for that auction. */
  notice(n: Notification): void {
    if (n.auction_id !== null && this.toasts.get().some((t) => t.auctionId === n.auction_id)) return;
    const notice: NoticeToast = { id: ++this.toastSeq, notificationId: n.id, auctionId: n.auction_id, message: n.message };
    this.notices.set((list) => [...list.filter((x) => x.notificationId !== n.id), notice].slice(-3));
    this.timers.later(TOAST_MS, () => this.dismissNotice(notice.id));
  }

  dismissNotice(id: number): void {
    this.notices.set((list) => (list.some((x) => x.id === id) ? list.filter((x) => x.id !== id) : list));
  }

  dismissToast(id: number): void {
    this.toasts.set((list) => (list.some((x) => x.id === id) ? list.filter((x) => x.id !== id) : list));
  }

  stop(): void {
    this.timers.clear();
  }

  /**
   * The outbid toast goes to the previous leader, unless their own maximum answers at once (the next row is
   * theirs: a bid below the maximum never beats it). A row above the maximum spends it. A row of mine means I
   * lead again: an older toast for that auction is gone.
   */
  private outbidCheck(qc: QueryClient, id: number, bid: Bid, prevLeader: number | undefined, toast: () => Omit<OutbidToast, 'id'>): void {
    const me = this.userId;
    if (me === null) return;
    if (bid.bidder === me) {
      this.toasts.set((list) => (list.some((x) => x.auctionId === id) ? list.filter((x) => x.auctionId !== id) : list));
      return;
    }
    const myMax = myMaximum(qc, id);
    if (myMax !== null && bid.amount >= myMax) spendMaximum(qc, id);
    const answered = myMax !== null && bid.amount < myMax;
    if (prevLeader === me && !answered) this.pushToast(toast());
  }

  private pushToast(t: Omit<OutbidToast, 'id'>): void {
    const toast = { ...t, id: ++this.toastSeq };
    this.toasts.set((list) => [...list.filter((x) => x.auctionId !== t.auctionId), toast].slice(-3));
    // The outbid notification of the same auction says the same: one toast.
    this.notices.set((list) => (list.some((x) => x.auctionId === t.auctionId) ? list.filter((x) => x.auctionId !== t.auctionId) : list));
    this.timers.later(TOAST_MS, () => this.dismissToast(toast.id));
  }
}

import type { AuctionOutcome } from '@shared/rules/buy-now';
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

/** 0/1 booleans, integer dinars, UTC ISO-8601 strings with `Z` (design.md §3). */
export interface UsersTable {
  id: Generated<number>;
  first_name: string;
  email: string;
  phone_number: string;
  city: string;
  password_hash: string | null;
  google_sub: string | null;
  verified_at: string | null;
  is_admin: ColumnType<number, number | undefined, number>;
  blocked_at: string | null;
  created_at: string;
  /** search_norm(first_name || char(1) || email), NULL until the admin search computes it (migration 2026-11-24-0600). */
  search_text: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface EmailTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: 'verify' | 'reset';
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface SessionsTable {
  sid: string;
  sess: string;
  expires: number;
  user_id: number | null;
}

export interface AuctionsTable {
  id: Generated<number>;
  seller_id: number;
  title: string;
  description: string;
  category: string;
  city: string;
  phone_number: string;
  starting_price: number;
  current_price: number;
  bid_count: ColumnType<number, number | undefined, number>;
  end_date: string;
  original_end_date: string;
  status: ColumnType<'active' | 'ended', 'active' | 'ended' | undefined, 'active' | 'ended'>;
  winner_id: number | null;
  search_text: string;
  seq: ColumnType<number, number | undefined, number>;
  created_at: string;
  closed_at: string | null;
  /** When the ending-soon alert went out (claimed once by the closer); NULL before (migration 2026-11-24-1300). */
  ending_soon_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** "Kupi odmah" price, NULL without one (migration 2026-11-25-2200). */
  buy_now_price: ColumnType<number | null, number | null | undefined, number | null>;
  /** The seller's hidden reserve, NULL without one: shown to the seller alone (migration 2026-11-25-2200). */
  reserve_price: ColumnType<number | null, number | null | undefined, number | null>;
  /** How it ended: 'sold' | 'unsold' | 'reserve_not_met'; NULL while open (migration 2026-11-25-2200). */
  outcome: ColumnType<AuctionOutcome | null, AuctionOutcome | null | undefined, AuctionOutcome | null>;
  /** The auction this one relists, NULL for a first listing or once that one is deleted (migration 2026-11-26-0300). */
  relisted_from: ColumnType<number | null, number | null | undefined, number | null>;
  /** Relists before this auction in its chain, 0 for a first listing (migration 2026-11-26-0300). */
  relist_count: ColumnType<number, number | undefined, number>;
  /** normaliseForSearch(city), what the list's `city` matches (migration 2026-11-26-0400); NULL only for rows written around the service. */
  city_norm: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AuctionImagesTable {
  id: Generated<number>;
  auction_id: number;
  position: number;
  card_path: string;
  large_path: string;
  width: number;
  height: number;
  created_at: string;
}

export interface BidsTable {
  id: Generated<number>;
  auction_id: number;
  bidder_id: number;
  amount: number;
  created_at: string;
  /** 1 when the row was written by a maximum (automatic bidding, migration 2026-11-24-1200). */
  auto: ColumnType<number, number | undefined, number>;
  /** 1 for the row a "Kupi odmah" wrote (migration 2026-11-25-2200). */
  buy_now: ColumnType<number, number | undefined, number>;
}

/**
 * A bidder's maximum on an auction (one row per auction and bidder, re-used). At most one row per auction is
 * active: the leader's; every other was beaten (beaten_at) and is spent.
 */
export interface AutoBidsTable {
  id: Generated<number>;
  auction_id: number;
  bidder_id: number;
  max_amount: number;
  created_at: string;
  active: ColumnType<number, number | undefined, number>;
  beaten_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CommentsTable {
  id: Generated<number>;
  auction_id: number;
  user_id: number;
  content: string;
  created_at: string;
}

/** The first answer to a POST /api/bids/ with an Idempotency-Key (unique per user and key). */
export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  request_hash: string;
  status: number;
  body: string;
  created_at: string;
}

/** A user watching an auction (issue 14): since `created_at`. */
export interface WatchlistTable {
  user_id: number;
  auction_id: number;
  created_at: string;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  auction_id: number | null;
  kind: string;
  message: string;
  is_read: ColumnType<number, number | undefined, number>;
  created_at: string;
  /** 'new_bid' only: the auction's bid_count before the burst it counts began (migration 2026-11-24-1500). */
  bids_before: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A member's e-mail kind turned off (issue 27); no row: on. */
export interface EmailOptoutsTable {
  user_id: number;
  kind: string;
  created_at: string;
}

/** A queued e-mail alert (issue 27, migration 2026-11-25-2400). */
export interface MailQueueTable {
  id: Generated<number>;
  user_id: number;
  auction_id: number | null;
  kind: string;
  /** The notification's markup (escaped), as the in-app list shows it. */
  message: string;
  /** How many notifications this mail stands for (an outbid window's fold). */
  fold_count: ColumnType<number, number | undefined, number>;
  /** 1: a folded outbid mail, sent at its window's end only while the member still does not lead. */
  folded: ColumnType<number, number | undefined, number>;
  created_at: string;
  send_after: string;
  attempts: ColumnType<number, number | undefined, number>;
  claimed_by: string | null;
  claimed_until: string | null;
  done_at: string | null;
  outcome: 'sent' | 'skipped' | null;
  last_error: string | null;
}

/**
 * A rating of one party of a sale by the other (issue 23, migration 2026-11-25-2100). `auction_id` is NULL once
 * the auction was deleted (the title stays); `role` is the rated member's role in the sale.
 */
export interface RatingsTable {
  id: Generated<number>;
  auction_id: number | null;
  auction_title: string;
  rater_id: number;
  rated_id: number;
  role: 'seller' | 'buyer';
  value: 'positive' | 'negative';
  comment: string;
  created_at: string;
  reply_content: ColumnType<string | null, string | null | undefined, string | null>;
  reply_created_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A member's report of an auction, a comment or a member (issue 24, migration 2026-11-26-0100). */
export interface ReportsTable {
  id: Generated<number>;
  reporter_id: number;
  target_type: 'auction' | 'comment' | 'member';
  target_id: number;
  /** The target's owner when it was reported (the member itself for a member). */
  owner_id: number;
  reason: string;
  text: ColumnType<string, string | undefined, string>;
  status: ColumnType<'open' | 'resolved' | 'dismissed', 'open' | undefined, 'resolved' | 'dismissed'>;
  created_at: string;
  resolved_at: ColumnType<string | null, undefined, string>;
  resolution_action: ColumnType<'delete_target' | 'block_owner' | 'dismiss' | null, undefined, string>;
  resolution_note: ColumnType<string | null, undefined, string>;
  resolved_by: ColumnType<number | null, undefined, number>;
}

/** One admin action (issue 24); append-only: triggers refuse UPDATE and DELETE. */
export interface AuditLogTable {
  id: Generated<number>;
  admin_id: number;
  action: string;
  target_type: string;
  target_id: number;
  note: ColumnType<string, string | undefined, never>;
  created_at: string;
}

/** A member blocked by another (issue 24, migration 2026-11-26-0200): the blocked may not take part in the blocker's open auctions. */
export interface MemberBlocksTable {
  blocker_id: number;
  blocked_id: number;
  created_at: string;
}

/** A member's saved search (issue 28) and its hourly fold; `q_text`/`city_norm` normalised for matching. */
export interface SavedSearchesTable {
  id: Generated<number>;
  user_id: number;
  q: string | null;
  q_text: string | null;
  category: string | null;
  min_price: number | null;
  max_price: number | null;
  city: string | null;
  city_norm: string | null;
  created_at: string;
  last_notified_at: ColumnType<string | null, string | null | undefined, string | null>;
  pending_count: ColumnType<number, number | undefined, number>;
  pending_auction_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A created auction waiting to be matched against the saved searches (claimed by deleting it). */
export interface SavedSearchJobsTable {
  id: Generated<number>;
  auction_id: number;
  created_at: string;
}

/** A manual bid's notifications, waiting for their delivery after its broadcast (migration 2026-11-27-0100). */
export interface BidNoticesTable {
  id: Generated<number>;
  auction_id: number;
  /** JSON of a BidNotice (features/bids/bid-notices.ts). */
  notice: string;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  email_tokens: EmailTokensTable;
  sessions: SessionsTable;
  auctions: AuctionsTable;
  auction_images: AuctionImagesTable;
  bids: BidsTable;
  auto_bids: AutoBidsTable;
  comments: CommentsTable;
  notifications: NotificationsTable;
  idempotency_keys: IdempotencyKeysTable;
  watchlist: WatchlistTable;
  ratings: RatingsTable;
  email_optouts: EmailOptoutsTable;
  mail_queue: MailQueueTable;
  reports: ReportsTable;
  audit_log: AuditLogTable;
  member_blocks: MemberBlocksTable;
  saved_searches: SavedSearchesTable;
  saved_search_jobs: SavedSearchJobsTable;
  bid_notices: BidNoticesTable;
}

export type Db = Kysely<Database>;
/** A repository function takes the db or a transaction first. */
export type DbOrTx = Kysely<Database> | Transaction<Database>;

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Auction = Selectable<AuctionsTable>;
export type Bid = Selectable<BidsTable>;
export type AutoBid = Selectable<AutoBidsTable>;
export type Comment = Selectable<CommentsTable>;
export type Notification = Selectable<NotificationsTable>;
export type AuctionImage = Selectable<AuctionImagesTable>;
export type RatingRow = Selectable<RatingsTable>;

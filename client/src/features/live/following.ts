import { createStore } from './store';

/**
 * The auctions the app's live layer follows with a settled baseline (in the room, events applied in seq
 * order). It lives apart from the live client so the auctions api can read it: the live client imports that
 * api, and one's own bid need not refetch what the followed auction's `bid:placed` events patch anyway.
 */
export const followedLive = createStore<ReadonlySet<number>>(new Set());

export const isFollowedLive = (auctionId: number): boolean => followedLive.get().has(auctionId);

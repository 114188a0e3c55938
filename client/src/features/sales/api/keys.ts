/**
 * Every cached page of GET /api/sales/ and of the member profiles (a new rating changes both). The query keys of the sales pages and member profiles, apart from their fetchers: the live layer (in the
 * entry chunk) invalidates them on `rating_received` without pulling the sales pages' code into the first load.
 */
export const salesKey = ['sales'] as const;
export const membersKey = ['members'] as const;

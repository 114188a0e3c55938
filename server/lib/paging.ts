import type { Paged } from '@shared/schemas/auctions';

/** The paged answer of every paged list (auctions, sales, members, reports, blocks, saved searches, users): `{count, next, previous, results}` with page numbers or null. */
export function pageOf<T>(count: number, page: number, size: number, results: T[]): Paged<T> {
  return { count, next: page * size < count ? page + 1 : null, previous: page > 1 ? page - 1 : null, results };
}

/** The ratings of sales (issue 23): all their SQL. */
import type { DbOrTx, RatingRow, RatingsTable } from '../../db/types';
import type { Insertable } from 'kysely';
import type { RatingScore } from '@shared/schemas/auctions';

export function insertRating(db: DbOrTx, values: Insertable<RatingsTable>): Promise<RatingRow> {
  return db.insertInto('ratings').values(values).returningAll().executeTakeFirstOrThrow();
}

export function findRating(db: DbOrTx, id: number): Promise<RatingRow | undefined> {
  return db.selectFrom('ratings').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The rater's rating of this sale, if any. */
export function findRatingBy(db: DbOrTx, auctionId: number, raterId: number): Promise<RatingRow | undefined> {
  return db.selectFrom('ratings').selectAll().where('auction_id', '=', auctionId).where('rater_id', '=', raterId).executeTakeFirst();
}

/**
 * Writes the rated member's one answer: a conditional UPDATE (only theirs, only while there is none), so two
 * answers at once leave exactly one. Undefined when it wrote nothing.
 */
export function setReply(db: DbOrTx, id: number, ratedId: number, content: string, now: string): Promise<RatingRow | undefined> {
  return db
    .updateTable('ratings')
    .set({ reply_content: content, reply_created_at: now })
    .where('id', '=', id)
    .where('rated_id', '=', ratedId)
    .where('reply_content', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Every rating of these auctions (both sides of each sale on one page): one statement. */
export async function ratingsOfAuctions(db: DbOrTx, auctionIds: readonly number[]): Promise<RatingRow[]> {
  if (auctionIds.length === 0) return [];
  return db.selectFrom('ratings').selectAll().where('auction_id', 'in', [...new Set(auctionIds)]).execute();
}

/** The score of each of these members (0/0 without ratings), counted from the (rated_id, value) index. */
export async function scoresOf(db: DbOrTx, userIds: readonly number[]): Promise<Map<number, RatingScore>> {
  const scores = new Map<number, RatingScore>(userIds.map((id) => [id, { positive: 0, negative: 0 }]));
  if (userIds.length === 0) return scores;
  const rows = await db
    .selectFrom('ratings')
    .select(['rated_id', 'value', (eb) => eb.fn.countAll<number>().as('n')])
    .where('rated_id', 'in', [...new Set(userIds)])
    .groupBy(['rated_id', 'value'])
    .execute();
  for (const r of rows) scores.get(r.rated_id)![r.value] = Number(r.n);
  return scores;
}

/** A member's ratings, newest first, with the rater's first name. */
export function listRatingsOf(db: DbOrTx, ratedId: number, limit: number, offset: number) {
  return db
    .selectFrom('ratings as r')
    .innerJoin('users as f', 'f.id', 'r.rater_id')
    .selectAll('r')
    .select('f.first_name as from_name')
    .where('r.rated_id', '=', ratedId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}
export type MemberRatingRow = Awaited<ReturnType<typeof listRatingsOf>>[number];

export async function countRatingsOf(db: DbOrTx, ratedId: number): Promise<number> {
  const row = await db.selectFrom('ratings').select((eb) => eb.fn.countAll<number>().as('n')).where('rated_id', '=', ratedId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

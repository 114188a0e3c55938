/** Public member profiles (issue 23): all their SQL but the ratings' (features/sales/ratings.repository.ts). */
import type { DbOrTx } from '../../db/types';

/** A member who is not blocked, with what the profile shows; undefined for a blocked or unknown id. */
export function findMember(db: DbOrTx, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'city', 'created_at'])
    .where('id', '=', id)
    .where('blocked_at', 'is', null)
    .executeTakeFirst();
}

/**
 * The member's sales (ended with a winner) as seller and as winner, and their open auctions (active, end in the
 * future): one statement, each count from an index of auctions ((seller_id, end_date), (winner_id, end_date)).
 */
export async function memberCounts(db: DbOrTx, id: number, now: string): Promise<{ sold: number; bought: number; active: number }> {
  const row = await db
    .selectNoFrom((eb) => {
      const count = () => eb.selectFrom('auctions as a').select((c) => c.fn.countAll<number>().as('n'));
      return [
        count().where('a.seller_id', '=', id).where('a.status', '=', 'ended').where('a.winner_id', 'is not', null).as('sold'),
        count().where('a.winner_id', '=', id).where('a.status', '=', 'ended').as('bought'),
        count().where('a.seller_id', '=', id).where('a.status', '=', 'active').where('a.end_date', '>', now).as('active'),
      ];
    })
    .executeTakeFirstOrThrow();
  return { sold: Number(row.sold), bought: Number(row.bought), active: Number(row.active) };
}

/** Sales (issue 23): auctions that ended with a winner, read for their seller and their winner. */
import type { DbOrTx } from '../../db/types';
import type { SaleRole } from '@shared/rules/sales';

/** The auction of a sale with what the rating rules read; undefined when the auction does not exist. */
export function findSaleAuction(db: DbOrTx, auctionId: number) {
  return db
    .selectFrom('auctions')
    .select(['id', 'title', 'seller_id', 'winner_id', 'status', 'end_date'])
    .where('id', '=', auctionId)
    .executeTakeFirst();
}

/** The caller's sales (ended with a winner) where they sold (`seller`), bought (`buyer`) or either, with both parties. */
function salesOf(db: DbOrTx, userId: number, role: SaleRole | undefined) {
  return db
    .selectFrom('auctions as a')
    .innerJoin('users as s', 's.id', 'a.seller_id')
    .innerJoin('users as w', 'w.id', 'a.winner_id')
    .where('a.status', '=', 'ended')
    .where((eb) =>
      role === 'seller' ? eb('a.seller_id', '=', userId) : role === 'buyer' ? eb('a.winner_id', '=', userId) : eb.or([eb('a.seller_id', '=', userId), eb('a.winner_id', '=', userId)]),
    );
}

/** One page of sales, newest end first (ties on id), with both parties' contact. */
export function listSales(db: DbOrTx, userId: number, role: SaleRole | undefined, limit: number, offset: number) {
  return salesOf(db, userId, role)
    .select([
      'a.id',
      'a.title',
      'a.current_price',
      'a.end_date',
      'a.seller_id',
      'a.phone_number',
      'w.id as winner_id',
      's.first_name as seller_name',
      's.city as seller_city',
      's.email as seller_email',
      's.phone_number as seller_phone',
      'w.first_name as winner_name',
      'w.city as winner_city',
      'w.email as winner_email',
      'w.phone_number as winner_phone',
    ])
    .orderBy('a.end_date', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}
export type SaleRow = Awaited<ReturnType<typeof listSales>>[number];

export async function countSales(db: DbOrTx, userId: number, role: SaleRole | undefined): Promise<number> {
  const row = await salesOf(db, userId, role)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

import type { DbOrTx } from '../../db/types';

/**
 * Bumps auctions.seq by one and returns the new value. Call it inside the transaction that changes the
 * auction (comment, delete; a bid and a close bump it in their own UPDATE), then emit with that seq after the
 * commit: watchers detect a missed event by a gap. Undefined when the auction does not exist.
 */
export async function bumpSeq(tx: DbOrTx, auctionId: number): Promise<number | undefined> {
  const row = await tx
    .updateTable('auctions')
    .set((eb) => ({ seq: eb('seq', '+', 1) }))
    .where('id', '=', auctionId)
    .returning('seq')
    .executeTakeFirst();
  return row?.seq;
}

/** Current seq of each existing auction among `ids`. */
export async function findSeqs(db: DbOrTx, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('auctions').select(['id', 'seq']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.seq]));
}

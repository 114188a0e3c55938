import type { DbOrTx } from '../db/types';

/**
 * Bumps auctions.seq by one and returns the new value. Call it inside the transaction that changes the
 * auction (bid, comment, close, delete), then emit with that seq after the commit: watchers detect a
 * missed event by a gap. Undefined when the auction does not exist.
 */
export async function nextSeq(tx: DbOrTx, auctionId: number): Promise<number | undefined> {
  const row = await tx
    .updateTable('auctions')
    .set((eb) => ({ seq: eb('seq', '+', 1) }))
    .where('id', '=', auctionId)
    .returning('seq')
    .executeTakeFirst();
  return row?.seq;
}

import type { AuctionDetail } from '@shared/schemas/auctions';
import type { Db } from '../db/types';
import { findDetail } from '../features/auctions/auctions.repository';
import { presentDetail } from '../features/auctions/auctions.presenter';
import { findSeq } from '../features/auctions/seq.repository';
import { listImages } from '../features/images/images.repository';

export interface AuctionSnapshot {
  seq: number;
  auction: AuctionDetail;
}

/**
 * The detail snapshot of an auction (exactly what GET /api/auction/{id}/ answers: the auctions feature's
 * repository + presenter) together with its seq, read in one transaction so that the seq describes
 * exactly that snapshot. Undefined when the auction does not exist. `viewerId`: the socket's user, whose
 * `watched` it shows (none: a visitor's socket).
 */
export async function loadAuctionSnapshot(db: Db, auctionId: number, viewerId?: number): Promise<AuctionSnapshot | undefined> {
  return db.transaction().execute(async (tx) => {
    const row = await findDetail(tx, auctionId, viewerId);
    if (!row) return undefined;
    const seq = await findSeq(tx, auctionId);
    if (seq === undefined) return undefined;
    const images = await listImages(tx, auctionId);
    return { seq, auction: presentDetail(row, images) };
  });
}


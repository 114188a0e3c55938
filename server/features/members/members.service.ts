import type { AppContext } from '../../context';
import { AppError } from '../../http/errors';
import { isoAt } from '../../lib/time';
import type { AuctionCard, Paged } from '@shared/schemas/auctions';
import type { MemberProfile, MemberRating, PageQuery } from '@shared/schemas/sales';
import { salesTexts } from '@shared/texts/sales';
import { listAuctions } from '../auctions/auctions.service';
import { pageOf } from '../../lib/paging';
import { countRatingsOf, listRatingsOf, scoresOf } from '../sales/ratings.repository';
import { blockedAmong } from '../blocks/blocks.repository';
import { findMember, memberCounts } from './members.repository';
import { presentMember, presentMemberRating } from './members.presenter';

/** A member who may be shown: not blocked by an admin; else (and for an unknown id) 404. */
async function visibleMember(ctx: AppContext, id: number) {
  const member = await findMember(ctx.db, id);
  if (!member) throw AppError.notFound(salesTexts.memberNotFound);
  return member;
}

/** GET /api/members/{id}/: name, city, since when, the score, the counts, and whether the caller blocked them. */
export async function getMember(ctx: AppContext, id: number, viewerId?: number): Promise<MemberProfile> {
  const member = await visibleMember(ctx, id);
  const [scores, counts, blocked] = await Promise.all([
    scoresOf(ctx.db, [id]),
    memberCounts(ctx.db, id, isoAt(Date.now())),
    viewerId !== undefined && viewerId !== id ? blockedAmong(ctx.db, viewerId, [id]) : new Set<number>(),
  ]);
  return presentMember(member, scores.get(id)!, counts, blocked.has(id));
}

/** GET /api/members/{id}/ratings/: every rating the member got (ratings of deleted auctions too), newest first. */
export async function listMemberRatings(ctx: AppContext, id: number, query: PageQuery): Promise<Paged<MemberRating>> {
  await visibleMember(ctx, id);
  const { page, page_size: size } = query;
  const [count, rows] = await Promise.all([countRatingsOf(ctx.db, id), listRatingsOf(ctx.db, id, size, (page - 1) * size)]);
  return pageOf(count, page, size, rows.map(presentMemberRating));
}

/** GET /api/members/{id}/auctions/: the member's open auctions as cards, soonest end first. */
export async function listMemberAuctions(ctx: AppContext, id: number, query: PageQuery, viewerId?: number): Promise<Paged<AuctionCard>> {
  await visibleMember(ctx, id);
  const list = await listAuctions(ctx, { kind: 'member', userId: id }, { page: query.page, page_size: query.page_size, sort: 'endDateAsc' }, viewerId);
  // With `page` given, listAuctions always answers the paged shape.
  return list as Paged<AuctionCard>;
}

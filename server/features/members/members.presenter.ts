import type { MemberProfile, MemberRating } from '@shared/schemas/sales';
import type { RatingScore } from '@shared/schemas/auctions';
import { percentPositive } from '@shared/rules/sales';
import type { MemberRatingRow } from '../sales/ratings.repository';
import { presentRating } from '../sales/sales.presenter';
import type { findMember } from './members.repository';

type MemberRow = NonNullable<Awaited<ReturnType<typeof findMember>>>;

/** The public profile: never an e-mail or a phone. */
export function presentMember(m: MemberRow, score: RatingScore, counts: { sold: number; bought: number; active: number }, blockedByViewer: boolean): MemberProfile {
  return {
    id: m.id,
    first_name: m.first_name,
    city: m.city,
    member_since: m.created_at,
    rating: { ...score, percent_positive: percentPositive(score.positive, score.negative) },
    sold_count: counts.sold,
    bought_count: counts.bought,
    active_auctions_count: counts.active,
    blocked_by_viewer: blockedByViewer,
  };
}

/** A rating the member got: their role in that sale, who rated, and the auction (its id null once deleted). */
export function presentMemberRating(r: MemberRatingRow): MemberRating {
  return {
    ...presentRating(r),
    role: r.role,
    from: { id: r.rater_id, first_name: r.from_name },
    auction: { id: r.auction_id, title: r.auction_title },
  };
}

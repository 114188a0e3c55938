import { Link, useParams } from 'react-router-dom';
import type { MemberRating } from '@shared/schemas/sales';
import { salesTexts } from '@shared/texts/sales';
import { sr } from '@shared/texts/sr';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { Pagination } from '../../../components/Pagination';
import { RatingScore } from '../../../components/RatingScore';
import { RatingView } from '../../../components/RatingView';
import { ApiError } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { usePageParam } from '../../../lib/use-page-param';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useMember, useMemberAuctions, useMemberRatings } from '../../sales/api/members';
import { useAuth } from '../../auth/use-auth';
import { BlockMemberButton } from '../../blocks/BlockMember';
import { AuctionCard } from '../components/AuctionCard';
// Statically: this page is a lazy chunk already; the detail page's lazy entry (../../reports) stays in its own chunk.
import { ReportButtonNow } from '../../reports/report-button';
import '../components/auctions.css';
import '../components/member.css';

/** 'dd.mm.yyyy' of an ISO time (local). */
const dateOf = (iso: string) => formatDateTime(iso).slice(0, 10);

/** /clan/:id: a member's public profile: name, city, member since, the score, ratings with answers, open auctions. */
export default function MemberPage() {
  const { id: rawId } = useParams();
  const id = /^\d{1,15}$/.test(rawId ?? '') ? Number(rawId) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) return <Missing />;
  return <Member key={id} id={id} />;
}

function Missing() {
  return (
    <div className="page">
      <p className="auction-list__empty">{salesTexts.memberNotFound}</p>
    </div>
  );
}

function Member({ id }: { id: number }) {
  const member = useMember(id);
  const { user } = useAuth();
  const m = member.data;
  useDocumentTitle(m?.first_name);
  if (member.isPending) return <LoadingScreen />;
  if (!m) {
    if (member.error instanceof ApiError && member.error.status === 404) return <Missing />;
    return (
      <div className="page">
        <p className="alert alert--error" role="alert">
          {salesTexts.loadError}
        </p>
      </div>
    );
  }
  const percent = m.rating.percent_positive;
  return (
    <div className="page page--member">
      <header className="member">
        <h1 className="member__name">{m.first_name}</h1>
        <p className="member__meta">
          {m.city && <span>{m.city} · </span>}
          {salesTexts.memberSince(dateOf(m.member_since))}
        </p>
        <p className="member__score" data-testid="member-score">
          <RatingScore score={m.rating} className="member__badge" />
          <span>{percent === null ? salesTexts.noRatings : salesTexts.percent(percent)}</span>
        </p>
        <ul className="member__counts">
          <li>{salesTexts.soldCount(m.sold_count)}</li>
          <li>{salesTexts.boughtCount(m.bought_count)}</li>
          <li>{salesTexts.activeCount(m.active_auctions_count)}</li>
        </ul>
        {user && user.id !== m.id && <ReportButtonNow targetType="member" targetId={m.id} />}
        {user && user.id !== id && <BlockMemberButton userId={id} name={m.first_name} blocked={m.blocked_by_viewer} />}
      </header>
      <MemberRatings id={id} />
      <MemberAuctions id={id} />
    </div>
  );
}

function RatingMeta({ r }: { r: MemberRating }) {
  return (
    <span className="member-rating__meta">
      {salesTexts.from} <Link to={`/clan/${r.from.id}`}>{r.from.first_name}</Link> · {r.role === 'seller' ? salesTexts.asSeller : salesTexts.asBuyer} ·{' '}
      {r.auction.id === null ? (
        <span>
          {r.auction.title} ({salesTexts.deletedAuction})
        </span>
      ) : (
        <Link to={`/aukcija/${r.auction.id}`}>{r.auction.title}</Link>
      )}
    </span>
  );
}

function MemberRatings({ id }: { id: number }) {
  const [page, setPage] = usePageParam('ocene');
  const ratings = useMemberRatings(id, page);
  const data = ratings.data;
  return (
    <section className="member__section" aria-labelledby="member-ratings">
      <h2 id="member-ratings">{salesTexts.ratingsTitle}</h2>
      {ratings.isPending ? (
        <p className="member__status">{sr.common.loading}</p>
      ) : !data ? (
        <p className="alert alert--error">{salesTexts.loadError}</p>
      ) : data.results.length === 0 ? (
        <p className="member__status">{salesTexts.noRatings}</p>
      ) : (
        <div className="member__ratings">
          {data.results.map((r) => (
            <RatingView key={r.id} rating={r} meta={<RatingMeta r={r} />} />
          ))}
        </div>
      )}
      {data && (data.next !== null || page > 1) && <Pagination page={page} hasPrevious={data.previous !== null} hasNext={data.next !== null} onPage={setPage} />}
    </section>
  );
}

function MemberAuctions({ id }: { id: number }) {
  const [page, setPage] = usePageParam('aukcije');
  const auctions = useMemberAuctions(id, page);
  const data = auctions.data;
  return (
    <section className="member__section" aria-labelledby="member-auctions">
      <h2 id="member-auctions">{salesTexts.auctionsTitle}</h2>
      {auctions.isPending ? (
        <p className="member__status">{sr.common.loading}</p>
      ) : !data ? (
        <p className="alert alert--error">{salesTexts.loadError}</p>
      ) : data.results.length === 0 ? (
        <p className="member__status">{salesTexts.noAuctions}</p>
      ) : (
        <ul className="auction-grid">
          {data.results.map((a) => (
            <li key={a.id}>
              <AuctionCard auction={a} />
            </li>
          ))}
        </ul>
      )}
      {data && (data.next !== null || page > 1) && <Pagination page={page} hasPrevious={data.previous !== null} hasNext={data.next !== null} onPage={setPage} />}
    </section>
  );
}

/**
 * The REST contract in one table: per endpoint (key `METHOD path`, the path as the server's router declares
 * it), the schema of its JSON body and of its query where it reads one, and per success status the schema
 * of its answer (`null`: no JSON body, as for 204 and the 302 redirects). Every error answer is
 * ApiErrorResponse, or the endpoint's `error` where it names one. docs/api.md describes each row in prose;
 * the server's tests parse every answer they see against this table and check that it lists exactly the
 * routes the server registers.
 */
import { z } from 'zod';
import {
  ChangePasswordInput,
  CsrfResponse,
  CurrentUserData,
  DetailResponse,
  EmailOnlyInput,
  GoogleConfigResponse,
  GoogleLoginInput,
  GoogleLoginResponse,
  LoginInput,
  LoginResponse,
  PasswordResetConfirmInput,
  RegisterInput,
  RegisterResponse,
  StatusResponse,
  UpdateProfileInput,
  UpdateProfileResponse,
  UsernameResponse,
} from './schemas/accounts';
import { AdminAuctionsQuery, AdminUserUpdatedResponse, AdminUsersQuery, AdminUsersResponse } from './schemas/admin';
import {
  AuctionCardList,
  AuctionCardPage,
  AuctionDetail,
  AuctionListResponse,
  CreateAuctionInput,
  CreateAuctionResponse,
  ImageOrderInput,
  ImagesResponse,
  ListQuery,
  OfferCountResponse,
  SellerResponse,
  BuyNowResponse,
} from './schemas/auctions';
import { EditAuctionInput, RelistInput, RelistResponse } from './schemas/auction-edits';
import { AutoBidInput, AutoBidRefusalResponse, AutoBidResponse, AutoBidStateResponse } from './schemas/autobid';
import { BidListResponse, BidRefusalResponse, PlaceBidInput, PlacedBidResponse, UserNamesInput, UserNamesResponse } from './schemas/bids';
import { CommentListResponse, CommentResponse, CreateCommentInput } from './schemas/comments';
import { MarkReadResponse, NotificationListResponse, UnreadCountResponse } from './schemas/notifications';
import { WatchInput, WatchResponse } from './schemas/watchlist';
import { SavedSearch, SavedSearchInput, SavedSearchPage } from './schemas/saved-searches';
import { NotificationSettingsInput, NotificationSettingsResponse, OneClickInput, UnsubscribeResponse } from './schemas/notification-settings';
import { ApiErrorResponse } from './schemas/errors';
import { HealthResponse } from './schemas/health';
import { MemberProfile, MemberRatingsPage, PageQuery, Rating, RatingInput, ReplyInput, SalesPage, SalesQuery } from './schemas/sales';
import { OpenApiDocument } from './schemas/openapi';
import { AdminReportsPage, AdminReportsQuery, AdminReport, AuditLogPage, CreateReportInput, ReportCreatedResponse, ResolveReportInput } from './schemas/reports';
import { BlockedMember, BlockedMembersPage, BlockMemberInput } from './schemas/blocks';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Endpoint {
  /** The JSON (or form) body, parsed by the handler. */
  body?: z.ZodType;
  query?: z.ZodType;
  /** Per success status: the answer's schema, or null when it has no JSON body. */
  output: { readonly [status: number]: z.ZodType | null };
  /** Error answers, when they carry more than ApiErrorResponse. */
  error?: z.ZodType;
  /** The body is multipart/form-data with files (no schema: the service checks them). */
  upload?: true;
}

const REFUSAL_CODES: readonly string[] = BidRefusalResponse.shape.code.options;
/** A refused bid carries the price it was refused at; any other error of POST /api/bids/ is the plain shape. */
const BidErrorResponse = z.union([BidRefusalResponse, ApiErrorResponse.refine((e) => !REFUSAL_CODES.includes(e.code))]);
const AUTO_REFUSAL_CODES: readonly string[] = AutoBidRefusalResponse.shape.code.options;
/** The same for a maximum (PUT /api/auctions/{id}/auto-bid/): the message under `max_amount`. */
const AutoBidErrorResponse = z.union([AutoBidRefusalResponse, ApiErrorResponse.refine((e) => !AUTO_REFUSAL_CODES.includes(e.code))]);

const list = { query: ListQuery, output: { 200: AuctionListResponse } } as const;
const NO_BODY = null;

export const API = {
  'GET /api/csrf/': { output: { 200: CsrfResponse } },
  'GET /api/health/': { output: { 200: HealthResponse }, error: HealthResponse },
  /** This table as an OpenAPI 3.1 document (shared/openapi.ts). */
  'GET /api/openapi.json': { output: { 200: OpenApiDocument } },

  'POST /api/user/register/': { body: RegisterInput, output: { 201: RegisterResponse } },
  'GET /api/verify/:code/': { output: { 302: NO_BODY } },
  'POST /api/verify/resend/': { body: EmailOnlyInput, output: { 200: DetailResponse } },
  'POST /api/login/': { body: LoginInput, output: { 200: LoginResponse } },
  'POST /api/logout/': { output: { 200: DetailResponse } },
  'GET /api/user/status/': { output: { 200: StatusResponse } },
  'GET /api/username/': { output: { 200: UsernameResponse } },
  'GET /api/current_user_data/': { output: { 200: CurrentUserData } },
  'PUT /api/update-profile/': { body: UpdateProfileInput, output: { 200: UpdateProfileResponse } },
  'POST /api/change-password/': { body: ChangePasswordInput, output: { 200: DetailResponse } },
  'POST /api/password-reset/': { body: EmailOnlyInput, output: { 200: DetailResponse } },
  'POST /api/password-reset/confirm/': { body: PasswordResetConfirmInput, output: { 200: DetailResponse } },
  'GET /api/auth/google/config/': { output: { 200: GoogleConfigResponse } },
  'POST /api/auth/google/': { body: GoogleLoginInput, output: { 200: GoogleLoginResponse } },
  'GET /api/auth/google/start': { output: { 302: NO_BODY } },
  'GET /api/auth/google/callback': { output: { 302: NO_BODY } },

  'POST /api/auctionItems/': { body: CreateAuctionInput, output: { 201: CreateAuctionResponse } },
  'GET /api/auction/:id/': { output: { 200: AuctionDetail } },
  'DELETE /api/auctionItems/delete/:id/': { output: { 204: NO_BODY } },
  'GET /api/user/username/:auctionId/': { output: { 200: SellerResponse } },
  'GET /api/auctions/:id/offer_count/': { output: { 200: OfferCountResponse } },
  'GET /api/auctions/best/': { output: { 200: AuctionCardList } },
  'GET /api/auctions/': list,
  /** An admin's query is AdminAuctionsQuery (ListQuery plus `status` and the bid-count sorts). */
  'GET /api/all-auction-items/': { query: z.union([AdminAuctionsQuery, ListQuery]), output: list.output },
  'GET /api/my-auctions/': list,
  'GET /api/auctionItems/': list,
  'GET /api/all-my-biddings/': list,
  /** Issue 26: the seller relists an unsold auction, or edits an open one before its first bid (→ the seller's detail). */
  'POST /api/auctions/:id/relist/': { body: RelistInput, output: { 201: RelistResponse } },
  'PATCH /api/auctions/:id/': { body: EditAuctionInput, output: { 200: AuctionDetail } },

  /** Multipart image files, no schema: the service checks count, size and content. */
  'POST /api/auction-items/:id/images/': { upload: true, output: { 201: ImagesResponse } },
  'PUT /api/auction-items/:id/images/order/': { body: ImageOrderInput, output: { 200: ImagesResponse } },
  'DELETE /api/auction-items/:id/images/:imageId/': { output: { 204: NO_BODY } },

  'POST /api/bids/': { body: PlaceBidInput, output: { 201: PlacedBidResponse }, error: BidErrorResponse },
  'GET /api/bids/:auctionId/': { output: { 200: BidListResponse } },
  'PUT /api/auctions/:id/auto-bid/': { body: AutoBidInput, output: { 200: AutoBidResponse }, error: AutoBidErrorResponse },
  'GET /api/auctions/:id/auto-bid/': { output: { 200: AutoBidStateResponse } },
  /** No body; an optional Idempotency-Key header as for a bid (issue 25). */
  'POST /api/auctions/:id/buy-now/': { output: { 201: BuyNowResponse } },
  'POST /api/users/': { body: UserNamesInput, output: { 200: UserNamesResponse } },

  'GET /api/comments/:auctionId/': { output: { 200: CommentListResponse } },
  'POST /api/comments/create/': { body: CreateCommentInput, output: { 201: CommentResponse } },
  'DELETE /api/comments/:commentId/delete/': { output: { 204: NO_BODY } },

  'POST /api/watchlist/': { body: WatchInput, output: { 201: WatchResponse, 200: WatchResponse } },
  'DELETE /api/watchlist/:auctionId/': { output: { 204: NO_BODY } },
  'GET /api/watchlist/': list,

  'GET /api/notifications/': { output: { 200: NotificationListResponse } },
  'GET /api/notifications/unread-count/': { output: { 200: UnreadCountResponse } },
  'PATCH /api/notifications/:id/mark-as-read/': { output: { 200: MarkReadResponse } },
  'GET /api/notification-settings/': { output: { 200: NotificationSettingsResponse } },
  'PUT /api/notification-settings/': { body: NotificationSettingsInput, output: { 200: NotificationSettingsResponse } },
  /** A Serbian HTML page whose button POSTs the one-click body (a forged token: 400 JSON). */
  'GET /api/unsubscribe/:token/': { output: { 200: NO_BODY } },
  /** RFC 8058 one-click (urlencoded or multipart); no session, CSRF token or Origin. HTML to a browser's form. */
  'POST /api/unsubscribe/:token/': { body: OneClickInput, output: { 200: UnsubscribeResponse } },

  'POST /api/saved-searches/': { body: SavedSearchInput, output: { 201: SavedSearch } },
  'GET /api/saved-searches/': { query: PageQuery, output: { 200: SavedSearchPage } },
  'DELETE /api/saved-searches/:id/': { output: { 204: NO_BODY } },

  'GET /api/sales/': { query: SalesQuery, output: { 200: SalesPage } },
  'POST /api/sales/:auctionId/rating/': { body: RatingInput, output: { 201: Rating } },
  'POST /api/ratings/:id/reply/': { body: ReplyInput, output: { 201: Rating } },
  'GET /api/members/:id/': { output: { 200: MemberProfile } },
  'GET /api/members/:id/ratings/': { query: PageQuery, output: { 200: MemberRatingsPage } },
  'GET /api/members/:id/auctions/': { query: PageQuery, output: { 200: AuctionCardPage } },

  'GET /api/blocked-members/': { query: PageQuery, output: { 200: BlockedMembersPage } },
  'POST /api/blocked-members/': { body: BlockMemberInput, output: { 201: BlockedMember, 200: BlockedMember } },
  'DELETE /api/blocked-members/:userId/': { output: { 204: NO_BODY } },

  'GET /api/admin/users/': { query: AdminUsersQuery, output: { 200: AdminUsersResponse } },
  'POST /api/admin/users/:id/block/': { output: { 200: AdminUserUpdatedResponse } },
  'POST /api/admin/users/:id/unblock/': { output: { 200: AdminUserUpdatedResponse } },

  'POST /api/reports/': { body: CreateReportInput, output: { 201: ReportCreatedResponse, 200: ReportCreatedResponse } },
  'GET /api/admin/reports/': { query: AdminReportsQuery, output: { 200: AdminReportsPage } },
  'POST /api/admin/reports/:id/resolve/': { body: ResolveReportInput, output: { 200: AdminReport } },
  'GET /api/admin/audit-log/': { query: PageQuery, output: { 200: AuditLogPage } },
} as const satisfies Record<`${HttpMethod} /api/${string}`, Endpoint>;

export type ApiRoute = keyof typeof API;

type Outputs<R extends ApiRoute> = (typeof API)[R]['output'];
/** The success answer of an endpoint (a union when it has several statuses); undefined when it has no body. */
export type ApiOutput<R extends ApiRoute> = {
  [S in keyof Outputs<R>]: Outputs<R>[S] extends z.ZodType ? z.output<Outputs<R>[S]> : undefined;
}[keyof Outputs<R>];
/** What the client sends as the body (before the server's trimming and defaults). */
export type ApiBody<R extends ApiRoute> = (typeof API)[R] extends { body: infer B extends z.ZodType } ? z.input<B> : never;

/** The table as rows, e.g. for checking it against the routes the server registers. */
export function apiRows(): Array<{ method: HttpMethod; path: string; route: ApiRoute; endpoint: Endpoint }> {
  return (Object.keys(API) as ApiRoute[]).map((route) => {
    const [method, path] = route.split(' ') as [HttpMethod, string];
    return { method, path, route, endpoint: API[route] };
  });
}

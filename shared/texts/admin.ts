import { ADMIN_USER_SEARCH_MAX } from '../rules/admin';
import { auctionTexts } from './auctions';

/** Serbian messages of the admin list calls (our wording). */
export const adminTexts = {
  badPage: auctionTexts.badPage,
  badPageSize: auctionTexts.badPageSize,
  badQuery: 'Parametri pretrage nisu ispravni.',
  badStatus: 'Status mora biti „active“ ili „ended“.',
  userSearchTooLong: `Pretraga korisnika može imati najviše ${ADMIN_USER_SEARCH_MAX} karaktera.`,
} as const;

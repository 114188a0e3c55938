import type { Migration } from 'kysely';
import * as m0001 from './2026-11-22-0001-init';
import * as m0310 from './2026-11-22-0310-auction-list-indexes';
import * as m0740 from './2026-11-22-0740-idempotency-keys';
import * as m0800 from './2026-11-22-0800-category-list-index';
import * as m0840 from './2026-11-22-0840-auctions-fts';
import * as m1000 from './2026-11-22-1000-open-listing';
import * as m20261124_0100 from './2026-11-24-0100-fixed-list-plans';
import * as m20261124_0600 from './2026-11-24-0600-users-search-text';
import * as m20261124_1200 from './2026-11-24-1200-auto-bids';
import * as m20261124_1300 from './2026-11-24-1300-watchlist';
import * as m20261124_1500 from './2026-11-24-1500-new-bid-burst';
import * as m20261125_2100 from './2026-11-25-2100-ratings';
import * as m20261125_2200 from './2026-11-25-2200-buy-now-reserve';
import * as m20261125_2400 from './2026-11-25-2400-email-alerts';
import * as m20261126_0100 from './2026-11-26-0100-reports-audit-log';
import * as m20261126_0200 from './2026-11-26-0200-member-blocks';
import * as m20261126_0300 from './2026-11-26-0300-relist';
import * as m20261126_0400 from './2026-11-26-0400-saved-searches';
import * as m20261126_0500 from './2026-11-26-0500-open-city-counts';
import * as m20261127_0100 from './2026-11-27-0100-bid-notices';

/** Every migration, in order. Names are dated; add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '2026-11-22-0001-init': m0001,
  '2026-11-22-0310-auction-list-indexes': m0310,
  '2026-11-22-0740-idempotency-keys': m0740,
  '2026-11-22-0800-category-list-index': m0800,
  '2026-11-22-0840-auctions-fts': m0840,
  '2026-11-22-1000-open-listing': m1000,
  '2026-11-24-0100-fixed-list-plans': m20261124_0100,
  '2026-11-24-0600-users-search-text': m20261124_0600,
  '2026-11-24-1200-auto-bids': m20261124_1200,
  '2026-11-24-1300-watchlist': m20261124_1300,
  '2026-11-24-1500-new-bid-burst': m20261124_1500,
  '2026-11-25-2100-ratings': m20261125_2100,
  '2026-11-25-2200-buy-now-reserve': m20261125_2200,
  '2026-11-25-2400-email-alerts': m20261125_2400,
  '2026-11-26-0100-reports-audit-log': m20261126_0100,
  '2026-11-26-0200-member-blocks': m20261126_0200,
  '2026-11-26-0300-relist': m20261126_0300,
  '2026-11-26-0400-saved-searches': m20261126_0400,
  '2026-11-26-0500-open-city-counts': m20261126_0500,
  '2026-11-27-0100-bid-notices': m20261127_0100,
};

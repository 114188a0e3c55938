import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { PAGE_SIZE } from '@shared/rules/limits';
import { ALL_AUCTIONS } from '@shared/categories';
import { api, type ApiQuery } from '../../../lib/api';
import type { Sort } from '@shared/schemas/auctions';

/** The list screen's state, also kept in the URL (?page=&q=&category=&sort=). */
export interface ListParams {
  page: number;
  q: string;
  sort: Sort;
  /** Only on /aukcije; '' or 'all-auctions' means every category. */
  category: string;
  /** Issue 28's filters, as the URL carries them ('' = none). */
  min_price?: string;
  max_price?: string;
  city?: string;
}


/** Which list: the public one (/aukcije), my auctions, the auctions I bid on, or the ones I follow (/pracene). */
export type ListSource = 'all' | 'mine' | 'bids' | 'watched';

const ROUTES = {
  all: 'GET /api/auctions/',
  mine: 'GET /api/my-auctions/',
  bids: 'GET /api/all-my-biddings/',
  watched: 'GET /api/watchlist/',
} as const satisfies Record<ListSource, string>;

export const auctionListsKey = ['auctions', 'list'] as const;

/** The list's query, in the order the URL has always carried it (empty values are left out). */
export function listSearch(source: ListSource, { page, sort, q, category, ...filters }: ListParams): ApiQuery<'GET /api/auctions/'> & { page: number } {
  return {
    category: source === 'all' && category && category !== ALL_AUCTIONS ? category : undefined,
    page,
    page_size: PAGE_SIZE,
    sort,
    q: q.trim(),
    // Issue 28's price and city, as the URL has them (the server trims and checks them).
    ...filters,
  };
}

/** GET /api/auctions/ | /api/my-auctions/ | /api/all-my-biddings/ | /api/watchlist/ with server paging, search and sort. */
export const fetchAuctionList = (source: ListSource, p: ListParams, signal?: AbortSignal) =>
  api(ROUTES[source], { query: listSearch(source, p), signal });

export const auctionListQuery = (source: ListSource, p: ListParams) =>
  queryOptions({
    queryKey: [...auctionListsKey, source, p] as const,
    queryFn: ({ signal }) => fetchAuctionList(source, p, signal),
    placeholderData: keepPreviousData,
  });

export const useAuctionList = (source: ListSource, p: ListParams, enabled = true) =>
  useQuery({ ...auctionListQuery(source, p), enabled });

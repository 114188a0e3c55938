import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { PAGE_SIZE } from '@shared/rules/limits';
import { ALL_AUCTIONS } from '@shared/categories';
import { apiFetch } from '../../../lib/api';
import type { AuctionCard, Paged, Sort } from '@shared/schemas/auctions';

/** The list screen's state, also kept in the URL (?page=&q=&category=&sort=). */
export interface ListParams {
  page: number;
  q: string;
  sort: Sort;
  /** Only on /aukcije; '' or 'all-auctions' means every category. */
  category: string;
}

/** Which list: the public one (/aukcije), my auctions, the auctions I bid on, or the ones I follow (/pracene). */
export type ListSource = 'all' | 'mine' | 'bids' | 'watched';

const PATHS: Record<ListSource, string> = {
  all: '/api/auctions/',
  mine: '/api/my-auctions/',
  bids: '/api/all-my-biddings/',
  watched: '/api/watchlist/',
};

export const auctionListsKey = ['auctions', 'list'] as const;

export function listSearch(source: ListSource, p: ListParams): string {
  const s = new URLSearchParams();
  if (source === 'all' && p.category && p.category !== ALL_AUCTIONS) s.set('category', p.category);
  s.set('page', String(p.page));
  s.set('page_size', String(PAGE_SIZE));
  s.set('sort', p.sort);
  if (p.q.trim()) s.set('q', p.q.trim());
  return s.toString();
}

/** GET /api/auctions/ | /api/my-auctions/ | /api/all-my-biddings/ | /api/watchlist/ with server paging, search and sort. */
export const fetchAuctionList = (source: ListSource, p: ListParams, signal?: AbortSignal) =>
  apiFetch<Paged<AuctionCard>>(`${PATHS[source]}?${listSearch(source, p)}`, { signal });

export const auctionListQuery = (source: ListSource, p: ListParams) =>
  queryOptions({
    queryKey: [...auctionListsKey, source, p] as const,
    queryFn: ({ signal }) => fetchAuctionList(source, p, signal),
    placeholderData: keepPreviousData,
  });

export const useAuctionList = (source: ListSource, p: ListParams, enabled = true) =>
  useQuery({ ...auctionListQuery(source, p), enabled });

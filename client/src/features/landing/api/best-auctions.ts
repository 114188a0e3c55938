import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export interface PopularAuction {
  id: number;
  title: string;
  current_price: number;
  first_image: string | null;
}

export const bestAuctionsKey = ['auctions', 'best'] as const;

/** GET /api/auctions/best/ */
export const fetchBestAuctions = () => apiFetch<PopularAuction[]>('/api/auctions/best/');

export const bestAuctionsQuery = () => queryOptions({ queryKey: bestAuctionsKey, queryFn: fetchBestAuctions });

export const useBestAuctions = () => useQuery(bestAuctionsQuery());

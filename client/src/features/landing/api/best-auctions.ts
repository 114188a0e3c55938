import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const bestAuctionsKey = ['auctions', 'best'] as const;

/** GET /api/auctions/best/ */
export const fetchBestAuctions = () => api('GET /api/auctions/best/');

export const bestAuctionsQuery = () => queryOptions({ queryKey: bestAuctionsKey, queryFn: fetchBestAuctions });

export const useBestAuctions = () => useQuery(bestAuctionsQuery());

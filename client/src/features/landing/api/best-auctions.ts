import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuctionCard } from '@shared/schemas/auctions';
import { apiFetch } from '../../../lib/api';

export const bestAuctionsKey = ['auctions', 'best'] as const;

/** GET /api/auctions/best/ */
export const fetchBestAuctions = () => apiFetch<AuctionCard[]>('/api/auctions/best/');

export const bestAuctionsQuery = () => queryOptions({ queryKey: bestAuctionsKey, queryFn: fetchBestAuctions });

export const useBestAuctions = () => useQuery(bestAuctionsQuery());

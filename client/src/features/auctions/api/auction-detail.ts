import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const auctionKey = (id: number) => ['auctions', 'detail', id] as const;

/** GET /api/auction/{id}/ */
export const fetchAuction = (id: number, signal?: AbortSignal) => api('GET /api/auction/:id/', { params: { id }, signal });

export const auctionQuery = (id: number) =>
  queryOptions({ queryKey: auctionKey(id), queryFn: ({ signal }) => fetchAuction(id, signal), staleTime: 5_000 });

export const useAuction = (id: number) => useQuery(auctionQuery(id));

export const sellerKey = (auctionId: number) => ['auctions', 'seller', auctionId] as const;

/** GET /api/user/username/{auctionId}/ → the seller's first_name and id. */
export const fetchSeller = (auctionId: number, signal?: AbortSignal) =>
  api('GET /api/user/username/:auctionId/', { params: { auctionId }, signal });

export const sellerQuery = (auctionId: number) =>
  queryOptions({ queryKey: sellerKey(auctionId), queryFn: ({ signal }) => fetchSeller(auctionId, signal), staleTime: 300_000 });

export const useSeller = (auctionId: number, enabled = true) => useQuery({ ...sellerQuery(auctionId), enabled });

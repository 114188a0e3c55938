import { apiFetch, apiUpload } from '../../../lib/api';
import type { CreateAuctionForm, CreateAuctionResponse, ImagesResponse } from '@shared/schemas/auctions';

/** POST /api/auctionItems/ (multipart) → 201 {id, detail}. */
export function createAuctionItem(values: CreateAuctionForm): Promise<CreateAuctionResponse> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) {
    if (v !== undefined && v !== null) fd.append(k, String(v));
  }
  return apiFetch<CreateAuctionResponse>('/api/auctionItems/', { method: 'POST', body: fd });
}

/** POST /api/auction-items/{id}/images/ with repeated `image` parts, in the chosen order; progress 0..1. */
export function uploadAuctionImages(id: number, files: File[], onProgress?: (f: number) => void): Promise<ImagesResponse> {
  const fd = new FormData();
  for (const f of files) fd.append('image', f, f.name);
  return apiUpload<ImagesResponse>(`/api/auction-items/${id}/images/`, fd, onProgress);
}

/** PUT /api/auction-items/{id}/images/order/ {image_ids}. */
export const reorderAuctionImages = (id: number, imageIds: number[]) =>
  apiFetch<unknown>(`/api/auction-items/${id}/images/order/`, { method: 'PUT', body: { image_ids: imageIds } });

import { apiFetch, apiUpload } from '../../../lib/api';
import type { CreateAuctionForm } from '@shared/schemas/auctions';

/** POST /api/auctionItems/ (multipart) → 201 {id}. */
export function createAuctionItem(values: CreateAuctionForm): Promise<{ id: number }> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) {
    if (v !== undefined && v !== null) fd.append(k, String(v));
  }
  return apiFetch<{ id: number }>('/api/auctionItems/', { method: 'POST', body: fd });
}

export interface UploadedImages {
  images?: { id: number; image: string; thumbnail: string }[];
}

/** POST /api/auction-items/{id}/images/ with repeated `image` parts, in the chosen order; progress 0..1. */
export function uploadAuctionImages(id: number, files: File[], onProgress?: (f: number) => void): Promise<UploadedImages> {
  const fd = new FormData();
  for (const f of files) fd.append('image', f, f.name);
  return apiUpload<UploadedImages>(`/api/auction-items/${id}/images/`, fd, onProgress);
}

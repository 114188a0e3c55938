import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, upload } from '../../../lib/api';
import type { CreateAuctionForm, CreateAuctionResponse, ImagesResponse } from '@shared/schemas/auctions';
import { auctionListsKey } from './auctions-list';
import { deleteAuction } from './delete-auction';

/** POST /api/auctionItems/ (multipart) → 201 {id, detail}. */
export function createAuctionItem(values: CreateAuctionForm): Promise<CreateAuctionResponse> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) {
    if (v !== undefined && v !== null) fd.append(k, String(v));
  }
  return api('POST /api/auctionItems/', { body: fd });
}

/** POST /api/auction-items/{id}/images/ with repeated `image` parts, in the chosen order; progress 0..1. */
export function uploadAuctionImages(id: number, files: File[], onProgress?: (f: number) => void): Promise<ImagesResponse> {
  const fd = new FormData();
  for (const f of files) fd.append('image', f, f.name);
  return upload('POST /api/auction-items/:id/images/', { params: { id }, form: fd, onProgress });
}

/** Which of the two requests failed; the form words the two differently (spec §8). */
export class CreateAuctionError extends Error {
  readonly step: 'create' | 'images';
  /** The request's own error (ApiError, NetworkError, …). */
  readonly error: unknown;
  constructor(step: 'create' | 'images', error: unknown) {
    super(`Creating the auction failed at: ${step}`);
    this.name = 'CreateAuctionError';
    this.step = step;
    this.error = error;
  }
}

export interface CreateAuctionVariables {
  values: CreateAuctionForm;
  files: File[];
  onProgress?: (fraction: number) => void;
}

/**
 * Creates the auction, then uploads its images; resolves with the new id. Fails with a CreateAuctionError.
 * When the images fail, the auction just created is deleted again, so none is left without images.
 */
export function useCreateAuction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ values, files, onProgress }: CreateAuctionVariables): Promise<number> => {
      let id: number;
      try {
        id = (await createAuctionItem(values)).id;
      } catch (err) {
        throw new CreateAuctionError('create', err);
      }
      try {
        await uploadAuctionImages(id, files, onProgress);
      } catch (err) {
        await deleteAuction(id).catch(() => undefined);
        throw new CreateAuctionError('images', err);
      }
      return id;
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: auctionListsKey }),
  });
}

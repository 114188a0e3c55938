import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { AuctionDetail, AuctionImage } from '@shared/schemas/auctions';
import { IMAGES_MAX } from '@shared/rules/limits';
import { auctionEditTexts as t } from '@shared/texts/auction-edits';
import { api, ApiError } from '../../../lib/api';
import { auctionKey } from '../api/auction-detail';
import { uploadAuctionImages } from '../api/create-auction';

/**
 * The images of an auction being edited (issue 26): each change (add, delete, move earlier) is saved at once,
 * as the server takes it while the auction has no bid, and the cached detail takes the new list.
 */
export function EditImages({ auction }: { auction: AuctionDetail }) {
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (change: () => Promise<AuctionImage[]>) => {
    setBusy(true);
    setError(null);
    try {
      const images = await change();
      qc.setQueryData<AuctionDetail>(auctionKey(auction.id), (d) => (d ? { ...d, images } : d));
    } catch (err) {
      setError(err instanceof ApiError && typeof err.body.detail === 'string' ? err.body.detail : t.notEditable);
    } finally {
      setBusy(false);
    }
  };
  const images = auction.images;
  const params = { id: auction.id };
  const remove = (img: AuctionImage) =>
    run(async () => {
      await api('DELETE /api/auction-items/:id/images/:imageId/', { params: { ...params, imageId: img.id } });
      return images.filter((i) => i.id !== img.id);
    });
  const earlier = (n: number) => {
    const ids = images.map((i) => i.id);
    [ids[n - 1], ids[n]] = [ids[n]!, ids[n - 1]!];
    return run(async () => (await api('PUT /api/auction-items/:id/images/order/', { params, body: { image_ids: ids } })).images);
  };
  const add = (files: FileList | null) => files?.length && run(async () => (await uploadAuctionImages(auction.id, Array.from(files))).images);

  return (
    <section className="card form create-form" aria-busy={busy}>
      <h2 className="field__label">{t.images}</h2>
      <p className="field__hint">{t.imagesHint}</p>
      <ol className="image-picker__list">
        {images.map((img, n) => (
          <li key={img.id} className="image-picker__item">
            <img src={img.thumbnail} alt="" className="image-picker__thumb" />
            <div className="image-picker__actions">
              {n > 0 && (
                <button type="button" className="image-picker__btn" aria-label={t.imageEarlier(n + 1)} disabled={busy} onClick={() => void earlier(n)}>
                  ←
                </button>
              )}
              <button type="button" className="image-picker__btn image-picker__btn--remove" aria-label={t.imageDelete(n + 1)} disabled={busy} onClick={() => void remove(img)}>
                ×
              </button>
            </div>
          </li>
        ))}
      </ol>
      {images.length < IMAGES_MAX && (
        <label className="btn btn--secondary">
          {t.imageAdd}
          <input type="file" accept="image/*" multiple hidden disabled={busy} onChange={(e) => void add(e.target.files)} />
        </label>
      )}
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

import { useState } from 'react';
import { sr } from '@shared/texts/sr';
import type { AuctionDetail } from '@shared/schemas/auctions';

export interface SlideshowProps {
  title: string;
  images: AuctionDetail['images'];
}

/** Image slideshow with previous/next that wrap around; arrow keys work when it has focus. */
export function Slideshow({ title, images }: SlideshowProps) {
  const [index, setIndex] = useState(0);
  const count = images.length;
  if (count === 0) {
    return (
      <div className="slideshow slideshow--empty">
        <span>{sr.auctions.noImage}</span>
      </div>
    );
  }
  const i = Math.min(index, count - 1);
  const go = (delta: number) => setIndex((cur) => (((Math.min(cur, count - 1) + delta) % count) + count) % count);
  const img = images[i];
  return (
    <div
      className="slideshow"
      role="group"
      aria-roledescription="carousel"
      aria-label={title}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft') go(-1);
        if (e.key === 'ArrowRight') go(1);
      }}
    >
      <div className="slideshow__frame">
        <img
          key={img.id}
          src={img.image}
          alt={sr.auctions.imageAlt(title, i + 1)}
          className="slideshow__img"
          sizes="(max-width: 768px) 100vw, 60vw"
          decoding="async"
        />
      </div>
      {count > 1 && (
        <>
          <button type="button" className="slideshow__nav slideshow__nav--prev" aria-label={sr.auctions.prevImage} onClick={() => go(-1)}>
            ‹
          </button>
          <button type="button" className="slideshow__nav slideshow__nav--next" aria-label={sr.auctions.nextImage} onClick={() => go(1)}>
            ›
          </button>
          <p className="slideshow__counter" aria-live="polite">
            {i + 1} / {count}
          </p>
          <div className="slideshow__thumbs">
            {images.map((im, n) => (
              <button
                key={im.id}
                type="button"
                className={`slideshow__thumb${n === i ? ' slideshow__thumb--active' : ''}`}
                aria-label={sr.auctions.imageAlt(title, n + 1)}
                aria-current={n === i ? 'true' : undefined}
                onClick={() => setIndex(n)}
              >
                <img src={im.thumbnail || im.image} alt="" loading="lazy" width={64} height={48} />
              </button>
            ))}
          </div>
        </>
      )}
    </div>
  );
}

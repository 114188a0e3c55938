import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { Spinner } from '../../../components/Spinner';
import { formatPrice } from '../../../lib/format';
import { useBestAuctions } from '../api/best-auctions';
import { slotPosition, wrap } from '../carousel';

const PLACEHOLDER = '/placeholder.svg';

/** 'Popularne aukcije': centre card highlighted, neighbours visible, the rest hidden; wraps around. */
export function PopularCarousel() {
  const best = useBestAuctions();
  const navigate = useNavigate();
  const [active, setActive] = useState(0);
  const items = best.data ?? [];
  const n = items.length;
  const current = wrap(active, n);

  return (
    <section className="carousel" aria-labelledby="popular-title">
      <h2 id="popular-title" className="carousel__title">
        {sr.landing.popular}
      </h2>
      {best.isPending ? (
        <div className="carousel__loading">
          <Spinner label={sr.common.loading} />
        </div>
      ) : n === 0 ? (
        <p className="carousel__empty">{sr.app.carouselEmpty}</p>
      ) : (
        <div className="carousel__stage">
          <button
            type="button"
            className="carousel__nav carousel__nav--prev"
            aria-label={sr.app.carouselPrev}
            onClick={() => setActive((a) => wrap(a - 1, n))}
            disabled={n < 2}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <ul className="carousel__track">
            {items.map((a, i) => {
              const pos = slotPosition(i, current, n);
              return (
                <li key={a.id} className={`carousel__slot carousel__slot--${pos}`} data-position={pos}>
                  <button
                    type="button"
                    className="carousel__card"
                    onClick={() => navigate('/aukcije')}
                    tabIndex={pos === 'hidden' ? -1 : 0}
                    aria-hidden={pos === 'hidden' ? true : undefined}
                  >
                    <img
                      src={a.first_image || PLACEHOLDER}
                      alt=""
                      loading="lazy"
                      decoding="async"
                      width={400}
                      height={300}
                      sizes="(max-width: 600px) 68vw, 320px"
                      onError={(e) => {
                        if (!e.currentTarget.src.endsWith(PLACEHOLDER)) e.currentTarget.src = PLACEHOLDER;
                      }}
                    />
                    <span className="carousel__card-title">{a.title}</span>
                    <span className="carousel__card-price">{formatPrice(a.current_price)}</span>
                  </button>
                </li>
              );
            })}
          </ul>
          <button
            type="button"
            className="carousel__nav carousel__nav--next"
            aria-label={sr.app.carouselNext}
            onClick={() => setActive((a) => wrap(a + 1, n))}
            disabled={n < 2}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
      )}
    </section>
  );
}

export default PopularCarousel;

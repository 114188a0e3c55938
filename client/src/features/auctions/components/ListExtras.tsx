/**
 * /aukcije's extra filters (price, city) and 'Sačuvaj pretragu' (issue 28): loaded lazily, only once the 'Filteri'
 * panel opens or a filter is active, so the list's first load carries none of it (tests/bench/first-load.test.ts).
 */
import { useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { savedSearchTexts as t } from '@shared/texts/saved-searches';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../auth/use-auth';
import type { ListParams } from '../api/auctions-list';
import { EXTRA_FILTERS } from '../hooks/use-list-params';
import { useSaveSearch } from '../api/saved-searches';

type Extra = (typeof EXTRA_FILTERS)[number];
const LABELS: Record<Extra, string> = { min_price: t.minPriceLabel, max_price: t.maxPriceLabel, city: t.cityLabel };

/** Cena od / Cena do / Grad: each applied on Enter or when it loses focus. */
export function PriceCityFilters({ params, onChange }: { params: ListParams; onChange: (patch: Partial<ListParams>) => void }) {
  const [draft, setDraft] = useState<Partial<Record<Extra, string>>>({});
  const commit = (k: Extra) => {
    const v = draft[k];
    if (v !== undefined && v !== (params[k] ?? '')) onChange({ [k]: v.trim() });
    setDraft((d) => ({ ...d, [k]: undefined }));
  };
  return (
    <>
      {EXTRA_FILTERS.map((k) => (
        <input
          key={k}
          className={`filters__search filters__extra filters__extra--${k}`}
          type={k === 'city' ? 'text' : 'number'}
          inputMode={k === 'city' ? undefined : 'numeric'}
          min={k === 'city' ? undefined : 0}
          maxLength={k === 'city' ? 100 : undefined}
          aria-label={LABELS[k]}
          placeholder={LABELS[k]}
          value={draft[k] ?? params[k] ?? ''}
          onChange={(e) => setDraft((d) => ({ ...d, [k]: e.target.value }))}
          onBlur={() => commit(k)}
          onKeyDown={(e: KeyboardEvent) => {
            if (e.key === 'Enter') commit(k);
          }}
        />
      ))}
    </>
  );
}

/** 'Sačuvaj pretragu' for a logged-in member, when a search, category or filter is active. */
export function SaveSearchButton({ params }: { params: ListParams }) {
  const auth = useAuth();
  const save = useSaveSearch();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  if (!auth.user) return null;
  const onSave = () => {
    setMessage(null);
    const body = {
      q: params.q.trim() || undefined,
      category: params.category || undefined,
      min_price: params.min_price || undefined,
      max_price: params.max_price || undefined,
      city: params.city?.trim() || undefined,
    };
    save.mutate(body, {
      onSuccess: () => setMessage({ ok: true, text: t.saved }),
      onError: (err) => setMessage({ ok: false, text: err instanceof ApiError ? err.message : t.loadFailed }),
    });
  };
  return (
    <div className="save-search">
      <button type="button" className="btn btn--secondary btn--sm" onClick={onSave} disabled={save.isPending}>
        {save.isPending ? t.saving : t.save}
      </button>
      {message && (
        <span className={message.ok ? 'save-search__ok' : 'save-search__error'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </span>
      )}
      {message?.ok && (
        <Link className="save-search__link" to="/sacuvane-pretrage">
          {t.title}
        </Link>
      )}
    </div>
  );
}

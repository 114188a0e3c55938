import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { sr } from '@shared/texts/sr';
import { ALL_AUCTIONS, ALL_AUCTIONS_LABEL, CATEGORIES } from '@shared/categories';
import { SORTS, type Sort } from '@shared/rules/sorts';

export interface FiltersProps {
  q: string;
  sort: Sort;
  category: string;
  showCategory: boolean;
  onSearch: (q: string) => void;
  onSort: (sort: Sort) => void;
  onCategory: (category: string) => void;
  /** More of the panel (the price and city filters, issue 28): rendered only while it is open. */
  extra?: ReactNode;
  /** A filter of `extra` is set: the panel starts open. */
  extraActive?: boolean;
}

const SEARCH_DEBOUNCE_MS = 300;
const FOCUS_DELAY_MS = 50;

/** 'Filteri' toggle with the search box and the sort selector; the category selector beside it on /aukcije. */
export function Filters({ q, sort, category, showCategory, onSearch, onSort, onCategory, extra, extraActive }: FiltersProps) {
  const panelId = useId();
  const [open, setOpen] = useState(() => q !== '' || sort !== 'endDateAsc' || !!extraActive);
  const [text, setText] = useState(q);
  const [placeholder, setPlaceholder] = useState<string>(sr.list.searchPlaceholder);
  const searchRef = useRef<HTMLInputElement>(null);
  const lastSent = useRef(q);

  // The URL may change from outside (back button, shared link): follow it.
  useEffect(() => {
    if (q !== lastSent.current) {
      lastSent.current = q;
      setText(q);
    }
  }, [q]);

  useEffect(() => {
    if (text === lastSent.current) return;
    const id = window.setTimeout(() => {
      lastSent.current = text;
      onSearch(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(id);
  }, [text, onSearch]);

  const toggle = () => {
    setOpen((o) => {
      if (!o) window.setTimeout(() => searchRef.current?.focus(), FOCUS_DELAY_MS);
      return !o;
    });
  };

  return (
    <div className="filters">
      <div className="filters__bar">
        <button type="button" className="filters__toggle" aria-expanded={open} aria-controls={panelId} onClick={toggle}>
          <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M3 5h18M6 12h12M10 19h4" strokeLinecap="round" />
          </svg>
          {sr.list.filters}
        </button>
        {showCategory && (
          <select
            className="filters__select filters__category"
            aria-label={sr.auctions.categoryLabel}
            value={category}
            onChange={(e) => onCategory(e.target.value)}
          >
            <option value="" disabled>
              {sr.list.chooseCategory}
            </option>
            <option value={ALL_AUCTIONS}>{ALL_AUCTIONS_LABEL}</option>
            {CATEGORIES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        )}
      </div>
      <div id={panelId} className="filters__panel" hidden={!open}>
        <input
          ref={searchRef}
          type="search"
          className="filters__search"
          aria-label={sr.auctions.search}
          placeholder={placeholder}
          value={text}
          maxLength={200}
          onFocus={() => setPlaceholder('')}
          onBlur={() => setPlaceholder(sr.list.searchPlaceholder)}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              lastSent.current = text;
              onSearch(text);
            }
          }}
        />
        <select
          className="filters__select"
          aria-label={sr.auctions.sortLabel}
          value={sort}
          onChange={(e) => onSort(e.target.value as Sort)}
        >
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {sr.list.sort[s]}
            </option>
          ))}
        </select>
        {open && extra}
      </div>
    </div>
  );
}

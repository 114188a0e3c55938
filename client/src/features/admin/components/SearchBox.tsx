import { useEffect, useRef, useState } from 'react';
import { TextField } from '../../../components/TextField';

export const SEARCH_DEBOUNCE_MS = 300;

export interface SearchBoxProps {
  label: string;
  placeholder?: string;
  /** The search in the URL. */
  value: string;
  /** Called once typing pauses (or on Enter) with the trimmed text. */
  onSearch: (q: string) => void;
  maxLength: number;
}

/** A search field that commits after a pause in typing; follows the URL when it changes from outside (back button). */
export function SearchBox({ label, placeholder, value, onSearch, maxLength }: SearchBoxProps) {
  const [text, setText] = useState(value);
  const committed = useRef(value);

  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    const q = text.trim();
    if (q === committed.current) return;
    const id = window.setTimeout(() => {
      committed.current = q;
      onSearch(q);
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(id);
  }, [text, onSearch]);

  return (
    <TextField
      className="admin-filters__search"
      label={label}
      type="search"
      placeholder={placeholder}
      value={text}
      maxLength={maxLength}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        const q = text.trim();
        if (e.key === 'Enter' && q !== committed.current) {
          committed.current = q;
          onSearch(q);
        }
      }}
    />
  );
}

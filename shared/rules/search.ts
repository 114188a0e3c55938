/**
 * Search normalisation for Serbian: both scripts, with or without diacritics, any case, end up as the
 * same plain Latin text. The server stores normaliseForSearch(title + description) in auctions.search_text
 * and matches the normalised query as a substring, so `sesir` finds `Šešir`, `djak` finds `đak` and
 * `телефон` finds `telefon` (and back).
 */
const CYRILLIC_TO_LATIN: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', ђ: 'dj', е: 'e', ж: 'z', з: 'z', и: 'i', ј: 'j', к: 'k',
  л: 'l', љ: 'lj', м: 'm', н: 'n', њ: 'nj', о: 'o', п: 'p', р: 'r', с: 's', т: 't', ћ: 'c', у: 'u',
  ф: 'f', х: 'h', ц: 'c', ч: 'c', џ: 'dz', ш: 's',
  // Letters of neighbouring Cyrillic alphabets that show up in pasted text.
  ё: 'e', й: 'j', ъ: '', ы: 'i', ь: '', э: 'e', ю: 'ju', я: 'ja', і: 'i', ї: 'ji', є: 'je', ґ: 'g', ѓ: 'gj', ќ: 'kj', ѕ: 'dz',
};

const LATIN_SPECIAL: Record<string, string> = { đ: 'dj', ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l' };

/** Lower-case plain Latin: Cyrillic transliterated, š→s, đ→dj, č/ć→c, ž→z, other accents dropped, spaces collapsed. */
export function normaliseForSearch(text: string): string {
  const lower = text.toLowerCase();
  let out = '';
  for (const ch of lower) out += CYRILLIC_TO_LATIN[ch] ?? LATIN_SPECIAL[ch] ?? ch;
  return out
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Escapes LIKE wildcards (`%`, `_`) and the escape character itself; use with `ESCAPE '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A search as the server runs it, built once from the user's `q`: `text` is the normalised text that a
 * match's search_text contains (what `instr` and a trigram phrase look for), `like` the same as a LIKE
 * pattern (`%text%` with the wildcards escaped; use with `ESCAPE '\'`).
 */
export interface SearchTerm {
  readonly text: string;
  readonly like: string;
}

/** The search for `q`, or undefined when `q` is absent or normalises to nothing (no search at all). */
export function searchTerm(q: string | undefined): SearchTerm | undefined {
  const text = q ? normaliseForSearch(q) : '';
  return text ? { text, like: `%${escapeLike(text)}%` } : undefined;
}

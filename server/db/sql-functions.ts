import type SQLite from 'better-sqlite3';
import { normaliseForSearch } from '@shared/rules/search';

/** Printable ASCII only: normaliseForSearch reduces to lower case and collapsed spaces. */
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/**
 * normaliseForSearch, with a shortcut for plain ASCII text (most e-mails and many names): the same result
 * at a fraction of the cost, which matters when a query calls it for every row of a table.
 */
export function searchNorm(text: string): string {
  return PLAIN_ASCII.test(text) ? text.toLowerCase().replace(/ +/g, ' ').trim() : normaliseForSearch(text);
}

/**
 * SQL functions the queries may call, registered on every connection (openDatabase):
 * - `search_norm(text)`: normaliseForSearch (lower case, plain Latin: `Šćepan` → `scepan`, Cyrillic
 *   transliterated), so a column without a stored normalised copy (users.first_name) matches a search
 *   the same way auctions.search_text does. Deterministic; NULL stays NULL.
 */
export function registerSqlFunctions(sqlite: SQLite.Database): void {
  sqlite.function('search_norm', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? searchNorm(value) : value));
}

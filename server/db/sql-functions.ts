import type SQLite from 'better-sqlite3';
import { normaliseForSearch } from '@shared/rules/search';

/**
 * SQL functions the queries may call, registered on every connection (openDatabase):
 * - `search_norm(text)`: normaliseForSearch (lower case, plain Latin: `Šćepan` → `scepan`, Cyrillic
 *   transliterated), so a column without a stored normalised copy (users.first_name) matches a search
 *   the same way auctions.search_text does. Deterministic; NULL stays NULL.
 */
export function registerSqlFunctions(sqlite: SQLite.Database): void {
  sqlite.function('search_norm', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? normaliseForSearch(value) : value));
}

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { searchNorm } from '../../../server/db/sql-functions';
import { normaliseForSearch } from '@shared/rules/search';

/** search_norm (SQL) must give exactly what normaliseForSearch gives, its ASCII shortcut included. */
describe('searchNorm', () => {
  it('equals normaliseForSearch on ASCII, Serbian Latin and Cyrillic, whitespace included', () => {
    const chars = fc.constantFrom(...'aZ09 .@_-%\\\t\n\u0001šŠđĐčČćĆžŽжЖђЂљЉéÉß'.split(''));
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 20 }).map((a) => a.join('')), (s) => {
        expect(searchNorm(s)).toBe(normaliseForSearch(s));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (s) => {
        expect(searchNorm(s)).toBe(normaliseForSearch(s));
      }),
      { numRuns: 2000 },
    );
  });
});

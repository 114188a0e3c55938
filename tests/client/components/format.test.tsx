import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDin, formatPrice } from '../../../client/src/lib/format';

describe('format (Serbian locale)', () => {
  it('prices with a dot as thousands separator', () => {
    expect(formatPrice(12500)).toBe('12.500 RSD');
    expect(formatPrice(100)).toBe('100 RSD');
    expect(formatPrice(1234567)).toBe('1.234.567 RSD');
    expect(formatDin(12500)).toBe('12.500 Din.');
  });

  it('date and time as dd.mm.yyyy hh:mm:ss, 24-hour', () => {
    const d = new Date(2025, 2, 7, 15, 4, 9);
    expect(formatDateTime(d)).toBe('07.03.2025 15:04:09');
    expect(formatDateTime('nije datum')).toBe('');
  });
});

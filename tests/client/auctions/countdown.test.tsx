import { describe, it, expect, vi, afterEach } from 'vitest';
import { render, screen, act } from '@testing-library/react';
import { formatCountdown } from '@shared/rules/countdown';
import { Countdown } from '../../../client/src/components/Countdown';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('formatCountdown', () => {
  it('shows days, hours, minutes and seconds with units', () => {
    expect(formatCountdown(2 * D + 3 * H + 4 * M + 5 * S)).toBe('2d 3h 4m 5s');
  });
  it('omits leading zero units', () => {
    expect(formatCountdown(4 * M + 5 * S)).toBe('4m 5s');
    expect(formatCountdown(5 * S)).toBe('5s');
    expect(formatCountdown(3 * H)).toBe('3h 0m 0s');
  });
  it('keeps inner zero units', () => {
    expect(formatCountdown(1 * D + 5 * S)).toBe('1d 0h 0m 5s');
  });
  it("says 'Završena aukcija' at zero and below", () => {
    expect(formatCountdown(0)).toBe('Završena aukcija');
    expect(formatCountdown(-5000)).toBe('Završena aukcija');
    expect(formatCountdown(Number.NaN)).toBe('Završena aukcija');
  });
  it('accepts another ended text', () => {
    expect(formatCountdown(0, 'Aukcija je završena')).toBe('Aukcija je završena');
  });
});

describe('<Countdown>', () => {
  afterEach(() => vi.useRealTimers());

  it('ticks every second and calls onEnd at zero', () => {
    vi.useFakeTimers();
    const start = new Date('2026-01-01T10:00:00Z').getTime();
    vi.setSystemTime(start);
    const onEnd = vi.fn();
    render(<Countdown endDate={new Date(start + 3 * S).toISOString()} onEnd={onEnd} />);
    expect(screen.getByText('3s')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByText('2s')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.getByText('Završena aukcija')).toBeTruthy();
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it("shows 'Aukcija je završena' on the detail variant and is silent for screen readers", () => {
    const { container } = render(<Countdown endDate={new Date(Date.now() - 1000).toISOString()} variant="detail" />);
    expect(screen.getByText('Aukcija je završena')).toBeTruthy();
    expect(container.querySelector('[aria-live="off"]')).toBeTruthy();
  });
});

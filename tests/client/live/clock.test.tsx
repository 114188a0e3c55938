import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { clockOffset } from '@shared/socket-events';
import { bestSample, measureOffset } from '../../../client/src/features/live/clock-sync';
import { createTicker, getOffset, msToNextSecond, now, setOffset, ticker, useTick } from '../../../client/src/lib/clock';
import { Countdown } from '../../../client/src/components/Countdown';

afterEach(() => {
  vi.useRealTimers();
  setOffset(0);
});

describe('clock offset (time:sync, NTP style)', () => {
  it('compensates the round trip: offset = server − midpoint', () => {
    expect(clockOffset(1000, 1200, 5000)).toEqual({ offset: 3900, rtt: 200 });
  });

  it('takes the lowest-RTT sample', () => {
    expect(bestSample([{ offset: 10, rtt: 300 }, { offset: 2, rtt: 20 }, { offset: 5, rtt: 80 }])).toEqual({ offset: 2, rtt: 20 });
    expect(bestSample([])).toBeNull();
  });

  it('measures several round trips against a server one hour behind, skipping failed and refused samples', async () => {
    let local = 1_000_000;
    const clock = () => local;
    const serverAhead = -3_600_000;
    const delays = [400, 30, 900];
    let i = 0;
    const request = async (client_time: number) => {
      const n = i++;
      if (n === 3) throw new Error('timeout');
      if (n === 4) return { ok: false as const, detail: 'Previše zahteva.' };
      const d = delays[n]!;
      // The request travels d/2, the server stamps, the answer travels d/2 (symmetric).
      local += d / 2;
      const server_time = local + serverAhead;
      local += d / 2;
      return { client_time, server_time };
    };
    const best = await measureOffset(request, 5, clock);
    expect(best).toEqual({ offset: serverAhead, rtt: 30 });
  });

  it('now() follows setOffset', () => {
    setOffset(-3_600_000);
    expect(getOffset()).toBe(-3_600_000);
    expect(Math.abs(now() - (Date.now() - 3_600_000))).toBeLessThan(50);
    setOffset(Number.NaN);
    expect(getOffset()).toBe(-3_600_000);
  });
});

describe('the shared ticker', () => {
  it('waits until the next whole second, never less than a few ms', () => {
    expect(msToNextSecond(10_000)).toBe(1000);
    expect(msToNextSecond(10_250)).toBe(750);
    expect(msToNextSecond(10_995)).toBe(1005);
  });

  it('runs one timer for every subscriber, on whole seconds of the given clock, and stops when nobody listens', () => {
    vi.useFakeTimers();
    vi.setSystemTime(50_300);
    const t = createTicker(() => Date.now());
    const a = vi.fn();
    const b = vi.fn();
    const offA = t.subscribe(a);
    const offB = t.subscribe(b);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(699);
    expect(a).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(a).toHaveBeenCalledTimes(2);
    expect(t.get()).toBe(2);
    offA();
    offB();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('24 countdowns on a page share one timer', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T12:00:00.000Z'));
    const end = new Date(Date.now() + 65_000).toISOString();
    render(
      <div>
        {Array.from({ length: 24 }, (_, i) => (
          <Countdown key={i} endDate={end} />
        ))}
      </div>,
    );
    expect(ticker.size()).toBe(24);
    expect(vi.getTimerCount()).toBe(1);
    expect(screen.getAllByText('1m 5s')).toHaveLength(24);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getAllByText('1m 4s')).toHaveLength(24);
  });

  it('a countdown redraws at once when the offset changes (server clock one hour behind the device)', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T13:00:00.000Z'));
    // The server says 12:00; the auction ends at 12:10 server time.
    render(<Countdown endDate="2026-03-01T12:10:00.000Z" variant="detail" />);
    expect(screen.getByText('Aukcija je završena')).toBeTruthy();
    act(() => setOffset(-3_600_000));
    expect(screen.getByText('10m 0s')).toBeTruthy();
  });

  it('useTick re-renders subscribers on every tick', () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000);
    const t = createTicker(() => Date.now());
    let renders = 0;
    function Probe() {
      useTick(t);
      renders += 1;
      return null;
    }
    render(<Probe />);
    const first = renders;
    for (let i = 0; i < 3; i++) {
      act(() => {
        vi.advanceTimersByTime(1000);
      });
    }
    expect(renders - first).toBe(3);
    expect(t.get()).toBe(3);
  });
});

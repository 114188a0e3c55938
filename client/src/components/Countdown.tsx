import { useEffect, useRef } from 'react';
import { formatCountdown } from '@shared/rules/countdown';
import { sr } from '@shared/texts/sr';
import { now as clockNow, useTick } from '../lib/clock';

export interface CountdownProps {
  /** ISO end date of the auction. */
  endDate: string;
  /** 'detail' shows 'Aukcija je završena' at zero, the default 'Završena aukcija'. */
  variant?: 'card' | 'detail';
  /** Called once when the countdown reaches zero (also when it is already over at mount). */
  onEnd?: () => void;
  className?: string;
  /** Time source; defaults to the server-corrected clock. */
  now?: () => number;
}

/**
 * Remaining time until end_date on server time, redrawn by the app's one shared ticker (lib/clock.ts), so a
 * page with 24 cards has one timer, not 24. Silent for screen readers (aria-live off).
 */
export function Countdown({ endDate, variant = 'card', onEnd, className, now = clockNow }: CountdownProps) {
  const end = new Date(endDate).getTime();
  useTick();
  const left = end - now();
  const ended = !(left > 0);

  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  const firedFor = useRef<number | null>(null);
  useEffect(() => {
    if (ended && firedFor.current !== end) {
      firedFor.current = end;
      onEndRef.current?.();
    }
  }, [ended, end]);

  const text = formatCountdown(left, variant === 'detail' ? sr.countdown.endedDetail : sr.countdown.ended);
  return (
    <span
      className={['countdown', ended ? 'countdown--ended' : '', className ?? ''].filter(Boolean).join(' ')}
      aria-live="off"
      data-ended={ended ? 'true' : 'false'}
      data-end={Number.isFinite(end) ? end : undefined}
      suppressHydrationWarning
    >
      {ended ? text : <time dateTime={new Date(end).toISOString()}>{text}</time>}
    </span>
  );
}

export default Countdown;

import { useEffect, useRef, useState } from 'react';
import { formatCountdown } from '@shared/rules/countdown';
import { sr } from '@shared/texts/sr';
import { now as clockNow, onOffsetChange } from '../lib/clock';

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

/** Remaining time, recomputed every second from end_date. Silent for screen readers (aria-live off). */
export function Countdown({ endDate, variant = 'card', onEnd, className, now = clockNow }: CountdownProps) {
  const end = new Date(endDate).getTime();
  const [left, setLeft] = useState(() => end - now());
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  const endedRef = useRef(false);

  useEffect(() => {
    endedRef.current = false;
    const tick = () => {
      const ms = end - now();
      setLeft(ms);
      if (!(ms > 0) && !endedRef.current) {
        endedRef.current = true;
        onEndRef.current?.();
      }
      return ms;
    };
    if (!(tick() > 0)) return onOffsetChange(tick);
    const id = window.setInterval(tick, 1000);
    const off = onOffsetChange(tick);
    return () => {
      window.clearInterval(id);
      off();
    };
  }, [end, now]);

  const ended = !(left > 0);
  const text = formatCountdown(left, variant === 'detail' ? sr.countdown.endedDetail : sr.countdown.ended);
  return (
    <span
      className={['countdown', ended ? 'countdown--ended' : '', className ?? ''].filter(Boolean).join(' ')}
      aria-live="off"
      data-ended={ended ? 'true' : 'false'}
      suppressHydrationWarning
    >
      {ended ? text : <time dateTime={new Date(end).toISOString()}>{text}</time>}
    </span>
  );
}

export default Countdown;

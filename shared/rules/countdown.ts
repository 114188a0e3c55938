import { sr } from '../texts/sr';

/**
 * Countdown text of spec §4: days, hours, minutes and seconds with units d h m s, leading zero units omitted
 * ('2d 3h 4m 5s', '4m 5s', '5s'); `ended` (default 'Završena aukcija') when no time is left.
 * Inner zero units are kept so the text does not jump in width ('1d 0h 0m 5s').
 */
export function formatCountdown(msLeft: number, ended: string = sr.countdown.ended): string {
  if (!Number.isFinite(msLeft) || msLeft <= 0) return ended;
  // Round up so that "5s" is shown for the whole last-but-five second and 0 only at the real end.
  const total = Math.ceil(msLeft / 1000);
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  const seconds = total % 60;
  const parts: [number, string][] = [
    [days, 'd'],
    [hours, 'h'],
    [minutes, 'm'],
    [seconds, 's'],
  ];
  const first = parts.findIndex(([v]) => v > 0);
  return parts
    .slice(first)
    .map(([v, u]) => `${v}${u}`)
    .join(' ');
}

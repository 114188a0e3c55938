import { MIN_BID_INCREMENT } from './limits';

/** The smallest amount the next bid may have. */
export function minNextBid(currentPrice: number): number {
  return currentPrice + MIN_BID_INCREMENT;
}

/** Whether an auction ending at `endDate` is still open at `now` (both in ms or Date). */
export function isOpen(endDate: Date | string | number, now: Date | number = Date.now()): boolean {
  return new Date(endDate).getTime() > new Date(now).getTime();
}

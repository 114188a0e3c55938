import type { AppContext } from '../../context';

/** Stub: the scheduler that closes auctions when end_date passes (issue 3). Returns a stop function. */
export function startClosingJob(_ctx: AppContext): () => void {
  return () => {};
}

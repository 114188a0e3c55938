import { minNextBid } from '@shared/rules/bids';
import { sr } from '@shared/texts/sr';
import { autoBidTexts } from '@shared/texts/auto-bid';

/** Client check of spec §4 step 3: a whole amount ≥ current + 10, else 'Minimalna ponuda je {min} din'. */
export function checkBidAmount(raw: string, currentPrice: number): { amount: number } | { error: string } {
  const min = minNextBid(currentPrice);
  const text = raw.trim().replace(/\s/g, '');
  if (text === '' || !/^\d+([.,]\d+)?$/.test(text)) return { error: sr.detail.minBid(min) };
  const amount = Math.floor(Number(text.replace(',', '.')));
  if (!Number.isFinite(amount) || amount < min) return { error: sr.detail.minBid(min) };
  return { amount };
}

/**
 * Client check of a maximum ("Automatska ponuda"): whole dinars; while the caller holds an active maximum it
 * can only be raised, otherwise it must reach the next bid (price + 10). The server decides again.
 */
export function checkMaxAmount(raw: string, currentPrice: number, activeMax: number | null): { amount: number } | { error: string } {
  const min = activeMax ?? minNextBid(currentPrice);
  const error = activeMax === null ? sr.autoBid.minMax(min) : autoBidTexts.onlyRaise;
  const text = raw.trim().replace(/\s/g, '');
  if (text === '' || !/^\d+([.,]\d+)?$/.test(text)) return { error: sr.autoBid.minMax(min) };
  const amount = Math.floor(Number(text.replace(',', '.')));
  if (!Number.isFinite(amount) || amount < min) return { error };
  return { amount };
}

/**
 * "Kupi odmah" and the reserve as shared/rules/buy-now.ts states them (issue 25, docs/bidding.md): the create
 * form's limits, when the option is offered and shown, whether the reserve is met, and how a close ends.
 */
import { describe, expect, it } from 'vitest';
import { buyNowAvailable, closeOutcome, minOptionPrice, optionProblems, reserveMet, shownBuyNowPrice } from '@shared/rules/buy-now';
import { CreateAuctionInput } from '@shared/schemas/auctions';

const form = { title: 'Bicikl', description: 'Dobar', current_price: '1000', city: 'Novi Sad', phone_number: '0641234567', category: 'sports' };

describe('create: buy_now_price and reserve_price', () => {
  it('both at least the starting price + 10; the reserve at most the buy-now price', () => {
    expect(minOptionPrice(1000)).toBe(1010);
    expect(optionProblems(1000, 1010, 1010)).toEqual({});
    expect(optionProblems(1000, 1009, null)).toEqual({ buy_now_price: 'too_low' });
    expect(optionProblems(1000, null, 1009)).toEqual({ reserve_price: 'too_low' });
    expect(optionProblems(1000, 5000, 5001)).toEqual({ reserve_price: 'above_buy_now' });
    expect(optionProblems(1000, null, 999_999)).toEqual({});
  });

  it('the schema floors them like the price, takes empty or absent as none, and answers under the field', () => {
    expect(CreateAuctionInput.parse(form)).toMatchObject({ buy_now_price: null, reserve_price: null });
    expect(CreateAuctionInput.parse({ ...form, buy_now_price: '', reserve_price: '  ' })).toMatchObject({ buy_now_price: null, reserve_price: null });
    expect(CreateAuctionInput.parse({ ...form, buy_now_price: '8000.9', reserve_price: 5000.5 })).toMatchObject({ buy_now_price: 8000, reserve_price: 5000 });
    const low = CreateAuctionInput.safeParse({ ...form, buy_now_price: '1009.99', reserve_price: '1005' });
    expect(low.success).toBe(false);
    expect(low.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['buy_now_price', 'Cena „Kupi odmah” mora biti najmanje 10 din veća od početne cene.'],
      ['reserve_price', 'Rezervna cena mora biti najmanje 10 din veća od početne cene.'],
    ]);
    const above = CreateAuctionInput.safeParse({ ...form, buy_now_price: '3000', reserve_price: '3010' });
    expect(above.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['reserve_price', 'Rezervna cena ne može biti veća od cene „Kupi odmah”.']]);
    expect(CreateAuctionInput.safeParse({ ...form, buy_now_price: 'abc' }).error!.issues[0]!.path).toEqual(['buy_now_price']);
  });
});

describe('"Kupi odmah" is offered while open, without bids, with a price', () => {
  it('available and shown only then', () => {
    expect(buyNowAvailable({ open: true, bidCount: 0, buyNowPrice: 8000 })).toBe(true);
    expect(buyNowAvailable({ open: true, bidCount: 1, buyNowPrice: 8000 })).toBe(false);
    expect(buyNowAvailable({ open: false, bidCount: 0, buyNowPrice: 8000 })).toBe(false);
    expect(buyNowAvailable({ open: true, bidCount: 0, buyNowPrice: null })).toBe(false);
    expect(shownBuyNowPrice({ open: true, bidCount: 0, buyNowPrice: 8000 })).toBe(8000);
    expect(shownBuyNowPrice({ open: true, bidCount: 1, buyNowPrice: 8000 })).toBeNull();
    expect(shownBuyNowPrice({ open: false, bidCount: 0, buyNowPrice: 8000 })).toBeNull();
  });
});

describe('the reserve (start 1,000, reserve 5,000)', () => {
  it('is met at or above it, not without bids or below it, and null without a reserve', () => {
    expect(reserveMet(1000, 0, 5000)).toBe(false);
    expect(reserveMet(2000, 1, 5000)).toBe(false);
    expect(reserveMet(5000, 2, 5000)).toBe(true);
    expect(reserveMet(6010, 3, 5000)).toBe(true);
    expect(reserveMet(2000, 1, null)).toBeNull();
  });

  it('a close below it is no sale; without bids unsold; otherwise sold', () => {
    expect(closeOutcome(4000, 2, 5000)).toBe('reserve_not_met');
    expect(closeOutcome(5000, 2, 5000)).toBe('sold');
    expect(closeOutcome(1000, 0, 5000)).toBe('unsold');
    expect(closeOutcome(1000, 0, null)).toBe('unsold');
    expect(closeOutcome(1010, 1, null)).toBe('sold');
  });
});

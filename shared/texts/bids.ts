/** Serbian messages of the bid rules that the spec does not quote (the minimum uses sr.detail.minBid). */
export const bidTexts = {
  amountRequired: 'Unesite iznos ponude.',
  amountWhole: 'Ponuda mora biti ceo broj dinara.',
  amountTooLarge: 'Ponuda je prevelika.',
  ownAuction: 'Ne možete licitirati na sopstvenoj aukciji.',
  ended: 'Aukcija je završena.',
  auctionInvalid: 'Aukcija nije ispravno navedena.',
  tooManyIds: 'Previše korisnika u jednom zahtevu.',
  idsInvalid: 'Lista korisnika nije ispravna.',
  idempotencyKeyInvalid: 'Zaglavlje Idempotency-Key nije ispravno (1 do 255 vidljivih znakova).',
  idempotencyKeyReused: 'Ovaj Idempotency-Key je već upotrebljen za drugačiju ponudu.',
} as const;

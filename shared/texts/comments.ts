export const commentTexts = {
  auctionInvalid: 'Aukcija nije ispravno navedena.',
} as const;

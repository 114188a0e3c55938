/**
 * The list's price and city filters' messages (issue 28), on their own: only shared/schemas/auctions.ts imports
 * them, so the client carries them in the create form's chunk alone (the first-load budget).
 */
export const listFilterTexts = {
  badMinPrice: 'Najniža cena nije ispravna.',
  badMaxPrice: 'Najviša cena nije ispravna.',
  badCity: 'Grad nije ispravan.',
};

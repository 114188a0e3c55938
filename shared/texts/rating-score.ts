/**
 * The words of a member's score beside their name (issue 23): apart from the rest of shared/texts/sales.ts so
 * that the auction detail's chunk, which shows the seller's score, does not carry the sales pages' texts.
 */
export const ratingScoreTexts = {
  score: (positive: number, negative: number) => `Pozitivne ocene: ${positive}, negativne: ${negative}`,
};

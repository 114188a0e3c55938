/**
 * Serbian texts of the watchlist (issue 14): the UI's words and the server's answers. Here, not in
 * shared/schemas/watchlist.ts, so the header can show them without loading zod (issue 21).
 */
export const watchlistTexts = {
  title: 'Praćene aukcije',
  watch: 'Prati',
  watching: 'Pratite',
  unwatch: 'Prestani da pratiš',
  watchCount: (n: number) => `Prati: ${n}`,
  empty: 'Ne pratite nijednu aukciju.',
  auctionInvalid: 'Aukcija nije ispravno navedena.',
  failed: 'Praćenje nije uspelo. Pokušajte ponovo.',
} as const;

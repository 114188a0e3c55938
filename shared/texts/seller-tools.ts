/**
 * The seller's buttons on their own auction and the relist dialog (issue 26): only the lazy SellerTools chunk
 * imports this, so neither the detail's nor the list's first load carries it.
 */
export const sellerToolTexts = {
  relist: 'Ponovo postavi',
  relistTitle: 'Ponovo postavi aukciju',
  relistDuration: 'Trajanje',
  relistPrice: 'Početna cena (RSD)',
  relistSubmit: 'Postavi',
  relistCancel: 'Odustani',
  relistFailed: 'Aukcija nije ponovo postavljena. Pokušajte ponovo.',
  relistedAs: 'Ponovo postavljena: pogledajte novu aukciju',
  edit: 'Izmeni',
  days: (n: number) => (n === 1 ? '1 dan' : `${n} dana`),
} as const;

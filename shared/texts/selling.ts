/**
 * "Kupi odmah" and the hidden reserve on cards and the detail (issue 25). A module of its own, apart from
 * auctionTexts (the create form's and the server's messages), so the list page's first load carries only these.
 */
export const sellingTexts = {
  buyNowUnavailable: 'Opcija „Kupi odmah” više nije dostupna.',
  reserveNotMet: 'Rezervna cena nije dostignuta',
  reserveMet: 'Rezervna cena je dostignuta',
  buyNowFor: (price: string) => `Kupi odmah za ${price} RSD`,
  buyNowBadge: 'Kupi odmah',
  buyNowConfirm: (price: string) => `Da li ste sigurni da želite da kupite ovaj predmet za ${price} dinara?`,
  ownReserve: (price: string) => `Vaša rezervna cena: ${price} din`,
  outcomeReserveNotMet: 'Završena bez prodaje: rezervna cena nije dostignuta.',
} as const;

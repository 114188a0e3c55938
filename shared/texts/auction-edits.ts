/**
 * Relisting an unsold auction and editing one before its first bid (issue 26): the server's messages and the
 * edit page's. A module of its own, apart from auctionTexts and sellingTexts, so no first load carries it; the
 * seller's buttons and the relist dialog have theirs in ./seller-tools.ts (each lazy chunk imports only its own).
 */
export const auctionEditTexts = {
  notEditable: 'Aukcija ima ponude ili je završena i ne može se menjati.',
  alreadyRelisted: 'Aukcija je već ponovo postavljena.',
  relistLimit: 'Aukcija je već ponovo postavljena 9 puta.',
  notRelistable: 'Ponovo se može postaviti samo vaša aukcija koja je završena bez prodaje.',
  editForbidden: 'Možete menjati samo svoju aukciju.',
  relistForbidden: 'Možete ponovo postaviti samo svoju aukciju.',
  editTitle: 'Izmena aukcije',
  editSave: 'Sačuvaj izmene',
  images: 'Slike',
  imagesHint: 'Promene slika se čuvaju odmah.',
  imageAdd: 'Dodaj slike',
  imageDelete: (n: number) => `Obriši sliku ${n}`,
  imageEarlier: (n: number) => `Pomeri sliku ${n} unapred`,
} as const;

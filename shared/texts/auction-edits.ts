/**
 * Relisting an unsold auction and editing one before its first bid (issue 26): the server's messages and the
 * seller's dialog and buttons. A module of its own, apart from auctionTexts and sellingTexts, so the detail and
 * list pages' first load carries none of it (only the lazy chunks of the dialog and the edit page import it).
 */
export const auctionEditTexts = {
  notEditable: 'Aukcija ima ponude ili je završena i ne može se menjati.',
  alreadyRelisted: 'Aukcija je već ponovo postavljena.',
  relistLimit: 'Aukcija je već ponovo postavljena 9 puta.',
  notRelistable: 'Ponovo se može postaviti samo vaša aukcija koja je završena bez prodaje.',
  editForbidden: 'Možete menjati samo svoju aukciju.',
  relistForbidden: 'Možete ponovo postaviti samo svoju aukciju.',
  relist: 'Ponovo postavi',
  relistTitle: 'Ponovo postavi aukciju',
  relistDuration: 'Trajanje',
  relistPrice: 'Početna cena (RSD)',
  relistSubmit: 'Postavi',
  relistCancel: 'Odustani',
  relistDone: 'Aukcija je ponovo postavljena.',
  relistedAs: 'Ponovo postavljena: pogledajte novu aukciju',
  relistedFrom: 'Ponovo postavljena aukcija',
  edit: 'Izmeni',
  editTitle: 'Izmena aukcije',
  editSave: 'Sačuvaj izmene',
  edited: 'Izmene su sačuvane.',
  days: (n: number) => (n === 1 ? '1 dan' : `${n} dana`),
} as const;

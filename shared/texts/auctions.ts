import { CITY_MAX, DESCRIPTION_MAX, TITLE_MAX } from '../rules/limits';
import { sr } from './sr';
import { sellingTexts } from './selling';

/**
 * Serbian messages of the auction and image calls that the spec does not quote (our wording). Here, not in
 * shared/schemas/auctions.ts, so the client can show them without loading zod (issue 21).
 */
export const auctionTexts = {
  titleTooLong: `Naslov može imati najviše ${TITLE_MAX} karaktera.`,
  descriptionTooLong: `Opis može imati najviše ${DESCRIPTION_MAX} karaktera.`,
  cityTooLong: `Grad može imati najviše ${CITY_MAX} karaktera.`,
  priceTooHigh: 'Cena je prevelika.',
  durationInvalid: 'Trajanje aukcije mora biti 1, 3, 4 ili 7 dana.',
  created: 'Aukcija je uspešno postavljena.',
  notFound: 'Aukcija ne postoji.',
  deleteForbidden: 'Možete obrisati samo svoju aukciju.',
  deleteHasBids: 'Aukcija ima ponude i ne može se obrisati.',
  deleted: 'Aukcija je obrisana.',
  imagesForbidden: 'Samo prodavac može menjati slike ove aukcije.',
  imagesTooMany: sr.create.imagesMax,
  imagesRequired: sr.create.imagesRequired,
  imageTooLarge: sr.create.imageTooLarge,
  imageNotImage: (name: string) => `${name} nije podržana slika. Dozvoljeni su JPEG, PNG, WebP i GIF.`,
  imageTooManyPixels: (name: string) => `${name} ima previše piksela (najviše 40 megapiksela).`,
  imagesOrderInvalid: 'Redosled slika nije ispravan: navedite svaku sliku aukcije tačno jednom.',
  imageNotFound: 'Slika ne postoji.',
  badForm: 'Podaci obrasca nisu ispravni.',
  badPage: 'Broj stranice nije ispravan.',
  badPageSize: 'Veličina stranice nije ispravna.',
  badQuery: 'Parametri pretrage nisu ispravni.',
  searchTooLong: 'Pretraga može imati najviše 200 karaktera.',
  buyNowTooLow: 'Cena „Kupi odmah” mora biti najmanje 10 din veća od početne cene.',
  reserveTooLow: 'Rezervna cena mora biti najmanje 10 din veća od početne cene.',
  reserveAboveBuyNow: 'Rezervna cena ne može biti veća od cene „Kupi odmah”.',
  buyNowUnavailable: sellingTexts.buyNowUnavailable,
  buyNowLabel: 'Cena „Kupi odmah” (opciono)',
  reserveLabel: 'Rezervna cena (opciono)',
  reserveHint: 'Skrivena najniža cena: ispod nje predmet se ne prodaje. Vidite je samo vi.',
} as const;

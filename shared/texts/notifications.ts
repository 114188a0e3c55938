/**
 * The Serbian texts of server-made notifications. Messages are markup (the client renders them and
 * sanitises with DOMPurify): every user-provided part goes through escapeHtml, line breaks stay \n.
 */
import { escapeHtml } from './html';

/** 1500 → "1.500" (Serbian grouping, no locale data needed). */
function grouped(amount: number): string {
  return String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/** 1500 → "1.500 din." */
export function formatDinars(amount: number): string {
  return `${grouped(amount)} din.`;
}

function auctionLink(auction: { id: number; title: string }): string {
  return `<a href="/aukcija/${Number(auction.id)}">${escapeHtml(auction.title)}</a>`;
}

export interface AuctionRef {
  id: number;
  title: string;
}

export const notificationTexts = {
  outbid(auction: AuctionRef, newPrice: number): string {
    return `Vaša ponuda na aukciji ${auctionLink(auction)} je nadmašena.\nNova cena: ${formatDinars(newPrice)}\nLicitirajte ponovo ako želite da pobedite.`;
  },
  /** To the owner of a maximum, once, when it is beaten (the only text that names a maximum: its owner's). */
  maxBeaten(auction: AuctionRef, max: number): string {
    return `Vaša automatska ponuda od ${grouped(max)} din je nadmašena na aukciji ${auctionLink(auction)}.`;
  },
  newBid(auction: AuctionRef, bidderName: string, amount: number): string {
    return `Nova ponuda na vašoj aukciji ${auctionLink(auction)}.\nPonuđač: ${escapeHtml(bidderName)}\nIznos: ${formatDinars(amount)}`;
  },
  newBids(auction: AuctionRef, count: number, bidderName: string, amount: number): string {
    return `Nove ponude na vašoj aukciji ${auctionLink(auction)}.\nBroj novih ponuda: ${count}\nPoslednja ponuda: ${formatDinars(amount)} (${escapeHtml(bidderName)})`;
  },
  won(auction: AuctionRef, price: number, sellerName: string, sellerPhone: string): string {
    return `Čestitamo! Pobedili ste na aukciji ${auctionLink(auction)} sa ponudom od ${formatDinars(price)}\nProdavac: ${escapeHtml(sellerName)}\nTelefon: ${escapeHtml(sellerPhone)}\nJavite se prodavcu da dogovorite preuzimanje.`;
  },
  endedSold(auction: AuctionRef, price: number, winner: { name: string; email: string; phone: string }): string {
    return `Vaša aukcija ${auctionLink(auction)} je završena.\nProdajna cena: ${formatDinars(price)}\nKupac: ${escapeHtml(winner.name)}\nEmail: ${escapeHtml(winner.email)}\nTelefon: ${escapeHtml(winner.phone)}`;
  },
  endedNoBids(auction: AuctionRef): string {
    return `Vaša aukcija ${auctionLink(auction)} je završena bez ponuda.`;
  },
  /** To the seller alone (the only text that names a reserve: its owner's), when a close is below it (issue 25). */
  endedReserveNotMet(auction: AuctionRef, reserve: number, price: number): string {
    return `Vaša aukcija ${auctionLink(auction)} je završena bez prodaje: rezervna cena od ${grouped(reserve)} din nije dostignuta. Najviša ponuda: ${grouped(price)} din.`;
  },
  /** To the highest bidder of a close below the reserve, without the amount (kind `reserve_not_met`). */
  reserveNotMet(auction: AuctionRef): string {
    return `Aukcija ${auctionLink(auction)} je završena, ali rezervna cena nije dostignuta, pa predmet nije prodat.`;
  },
  newComment(auction: AuctionRef, authorName: string, content: string): string {
    const excerpt = [...content].length > 100 ? `${[...content].slice(0, 100).join('')}…` : content;
    return `Novi komentar na vašoj aukciji ${auctionLink(auction)}.\n${escapeHtml(authorName)}: ${escapeHtml(excerpt)}`;
  },
  /**
   * To a watcher or bidder when ENDING_SOON_SECONDS are left; `minutes` is already rounded (at least 1).
   * Serbian counts 1, 21, 31 … "minut" and every other number "minuta" (the '{n} minuta').
   */
  endingSoon(auction: AuctionRef, minutes: number): string {
    const word = minutes % 10 === 1 && minutes % 100 !== 11 ? 'minut' : 'minuta';
    return `Aukcija ${auctionLink(auction)} se završava za ${minutes} ${word}.`;
  },
  /**
   * To the rated member of a sale (issue 23): the value, who rated, the comment, and the page where they may
   * answer (/moje-prodaje when they sold, /moje-kupovine when they bought).
   */
  ratingReceived(auction: AuctionRef, rating: { positive: boolean; from: string; comment: string; ratedAs: 'seller' | 'buyer' }): string {
    const page = rating.ratedAs === 'seller' ? '<a href="/moje-prodaje">Prodati predmeti</a>' : '<a href="/moje-kupovine">Kupljeni predmeti</a>';
    const comment = rating.comment ? `\nKomentar: ${escapeHtml(rating.comment)}` : '';
    return `Dobili ste ${rating.positive ? 'pozitivnu' : 'negativnu'} ocenu za kupoprodaju ${auctionLink(auction)}.\nOd: ${escapeHtml(rating.from)}${comment}\nOdgovoriti možete na stranici ${page}.`;
  },
} as const;

/**
 * Serbian texts of the member block list ("crna lista", issue 24): the server's answers and the UI's words. The
 * refusal's sentence is also the bid box's on the detail page, which loads it lazily (the first-load budget).
 */
import { MAX_BLOCKED_MEMBERS } from '../rules/blocks';

export const blockTexts = {
  // The server's answers (the wording where it gives one).
  blockedBySeller: 'Prodavac vam je onemogućio učešće na svojim aukcijama.',
  userInvalid: 'Član nije ispravno naveden.',
  blockSelf: 'Ne možete blokirati sebe.',
  unknownMember: 'Član ne postoji.',
  tooMany: `Možete blokirati najviše ${MAX_BLOCKED_MEMBERS} članova.`,

  // The UI.
  block: 'Blokiraj člana',
  unblock: 'Odblokiraj',
  blockedNow: 'Član je blokiran.',
  confirmBlock: (name: string) =>
    `Da li ste sigurni da želite da blokirate člana ${name}? Neće moći da licitira, postavlja maksimalnu ponudu, kupuje odmah ni komentariše na vašim aukcijama.`,
  listTitle: 'Blokirani članovi',
  listEmpty: 'Niste blokirali nijednog člana.',
  blockedAt: 'Blokiran',
  failed: 'Radnja nije uspela. Pokušajte ponovo.',
  loadError: 'Podaci trenutno ne mogu da se učitaju. Pokušajte ponovo.',
} as const;

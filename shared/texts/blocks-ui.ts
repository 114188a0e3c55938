/** Serbian UI words of the member block list ("crna lista", issue 24): /clan/{id}, /moje-prodaje and /profil. */
export const blockUiTexts = {
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

/** Serbian messages the server sends that the spec does not quote (our own wording). */
export const srv = {
  notAuthenticated: 'Morate biti prijavljeni.',
  forbidden: 'Nemate dozvolu za ovu radnju.',
  notFound: 'Traženi resurs ne postoji.',
  csrf: 'Bezbednosni token (CSRF) nedostaje ili nije ispravan. Osvežite stranicu i pokušajte ponovo.',
  badJson: 'Zahtev nije ispravan JSON.',
  tooLarge: 'Zahtev je prevelik.',
  invalidInput: 'Podaci nisu ispravni.',
  internal: 'Došlo je do greške na serveru. Pokušajte ponovo.',
  rateLimited: 'Previše pokušaja. Sačekajte malo pa pokušajte ponovo.',
  emailTaken: 'Korisnik sa ovom email adresom već postoji.',
  notVerifiedApi: 'Vaš nalog nije verifikovan. Proverite vaš email.',
  blocked: 'Vaš nalog je blokiran.',
  invalidCredentials: 'Email ili lozinka nisu tačni!',
} as const;

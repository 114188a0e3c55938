/** Serbian messages of socket acks that the spec does not quote (our wording). */
export const rtTexts = {
  flood: 'Previše zahteva. Sačekajte malo pa pokušajte ponovo.',
  tooManyRooms: 'Pratite previše aukcija odjednom. Zatvorite neke pa pokušajte ponovo.',
  invalid: 'Podaci nisu ispravni.',
  notFound: 'Aukcija ne postoji.',
  internal: 'Došlo je do greške na serveru. Pokušajte ponovo.',
} as const;

/** The settings page /podesavanja-obavestenja (issue 27); small: the header's user menu imports it. */
export const notificationSettingsTexts = {
  title: 'Podešavanja obaveštenja',
  intro: 'Izaberite o čemu želite da vas obaveštavamo e-poštom. Obaveštenja na sajtu su uvek uključena.',
  emailHeading: 'Obaveštenja e-poštom',
  save: 'Sačuvaj',
  saved: 'Podešavanja su sačuvana.',
  failed: 'Čuvanje nije uspelo. Pokušajte ponovo.',
} as const;

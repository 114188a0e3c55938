/** The Serbian e-mails the server sends (plain text; the link is an absolute URL under PUBLIC_URL). */
export const mailTexts = {
  verification(firstName: string, link: string): { subject: string; text: string } {
    return {
      subject: 'Aukcije: potvrdite vašu email adresu',
      text:
        `Zdravo ${firstName},\n\n` +
        `hvala što ste se registrovali na Aukcije. Potvrdite vašu email adresu klikom na link:\n\n${link}\n\n` +
        `Link važi 48 sati. Ako se niste vi registrovali, zanemarite ovu poruku.\n\nVaše Aukcije`,
    };
  },
  passwordReset(firstName: string, link: string): { subject: string; text: string } {
    return {
      subject: 'Aukcije: promena lozinke',
      text:
        `Zdravo ${firstName},\n\n` +
        `neko (verovatno vi) je zatražio promenu lozinke za vaš nalog na Aukcijama. Novu lozinku postavite ovde:\n\n${link}\n\n` +
        `Link važi 1 sat i može se iskoristiti samo jednom. Ako niste vi tražili promenu, zanemarite ovu poruku: ` +
        `vaša lozinka ostaje ista.\n\nVaše Aukcije`,
    };
  },
} as const;

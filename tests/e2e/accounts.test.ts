import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { checkA11y, launchBrowser, login, makeUser, newPage, registerAndVerify } from './support/browser';
import { startE2EServer, type E2EServer } from './support/server';

let server: E2EServer;
let browser: Browser;

beforeAll(async () => {
  server = await startE2EServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('accounts in the browser', () => {
  it('registers, verifies from the outbox, then logs in', async () => {
    const user = makeUser('reg');
    const { context, page } = await newPage(browser, server);
    await registerAndVerify(page, server, user);
    await page.getByText('Vaš nalog je verifikovan. Sada se možete ulogovati.').waitFor();
    await login(page, user);
    // Logged in: the header shows the bell and the user menu with the name.
    await page.getByRole('button', { name: 'Korisnički meni' }).click();
    await page.getByText(user.name).waitFor({ timeout: 5000 });
    await context.close();
  });

  it('shows the registration rules and the server e-mail error under the field', async () => {
    const user = makeUser('dup');
    const { context, page } = await newPage(browser, server);
    await registerAndVerify(page, server, user);
    await page.goto('/registracija');
    await page.getByRole('heading', { name: 'Registrujte se' }).waitFor();
    await page.locator('form').getByRole('button', { name: 'Registruj se' }).click();
    await expect(page.getByText('Ime je obavezno.').isVisible()).resolves.toBe(true);
    await expect(page.getByText('Email je obavezan.').isVisible()).resolves.toBe(true);
    await page.getByLabel('Ime i prezime').fill('Drugi Korisnik');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Broj telefona').fill('0641112223');
    await page.getByLabel('Lozinka', { exact: true }).fill('Sigurna123');
    await page.getByLabel('Potvrda lozinke').fill('Sigurna123');
    await page.locator('form').getByRole('button', { name: 'Registruj se' }).click();
    await page.getByText('Korisnik sa ovom email adresom već postoji.').waitFor();
    await context.close();
  });

  it('rejects a wrong password and an unverified account with the spec messages', async () => {
    const user = makeUser('wrong');
    const { context, page } = await newPage(browser, server);
    await registerAndVerify(page, server, user);
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Prijavite se' }).waitFor();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Lozinka', { exact: true }).fill('PogresnaLozinka1');
    await page.locator('form').getByRole('button', { name: 'Uloguj se' }).click();
    await page.getByText('Email ili lozinka nisu tačni!').waitFor();
    expect(page.url()).toMatch(/\/login$/);

    // Registered but never verified → 403 with the server's message.
    const fresh = makeUser('unverified');
    await page.goto('/registracija');
    await page.getByRole('heading', { name: 'Registrujte se' }).waitFor();
    await page.getByLabel('Ime i prezime').fill(fresh.name);
    await page.getByLabel('Email').fill(fresh.email);
    await page.getByLabel('Broj telefona').fill(fresh.phone);
    await page.getByLabel('Lozinka', { exact: true }).fill(fresh.password);
    await page.getByLabel('Potvrda lozinke').fill(fresh.password);
    await page.locator('form').getByRole('button', { name: 'Registruj se' }).click();
    const dialog = page.getByRole('dialog', { name: 'Uspešna registracija!' });
    await dialog.waitFor();
    await expect(dialog.getByText(fresh.email).isVisible()).resolves.toBe(true);
    await dialog.getByRole('button').click();
    await page.waitForURL(/\/login$/);
    await page.getByRole('heading', { name: 'Prijavite se' }).waitFor();
    await page.getByLabel('Email').fill(fresh.email);
    await page.getByLabel('Lozinka', { exact: true }).fill(fresh.password);
    await page.locator('form').getByRole('button', { name: 'Uloguj se' }).click();
    await page.getByText('Vaš nalog nije verifikovan. Proverite vaš email.').waitFor();
    await context.close();
  });

  it('updates the profile and goes to /aukcije', async () => {
    const user = makeUser('profil');
    const { context, page } = await newPage(browser, server);
    await registerAndVerify(page, server, user);
    await login(page, user);
    await page.goto('/profil');
    await page.getByRole('heading', { name: 'Korisnička stranica' }).waitFor();
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(user.email);
    expect(await page.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    await page.getByLabel('Ime i prezime').fill('Jelena Jovanović');
    await page.getByLabel('Grad').fill('Novi Sad');
    await page.getByRole('button', { name: 'Ažurirajte podatke' }).click();
    await page.getByText('Podaci su uspešno ažurirani.').waitFor();
    await expect(page.getByText('Greška pri ažuriranju podataka.').count()).resolves.toBe(0);
    await page.waitForURL(/\/aukcije$/);
    await page.goto('/profil');
    await expect(page.getByLabel('Ime i prezime').inputValue()).resolves.toBe('Jelena Jovanović');
    await expect(page.getByLabel('Grad').inputValue()).resolves.toBe('Novi Sad');
    await context.close();
  });

  it('changes the password, then only the new one logs in', async () => {
    const user = makeUser('lozinka');
    const { context, page } = await newPage(browser, server);
    await registerAndVerify(page, server, user);
    await login(page, user);
    await page.goto('/promena-lozinke');
    await page.getByLabel('Stara lozinka').fill('NijeTacna99');
    await page.getByLabel('Nova lozinka').fill('NovaLozinka77');
    await page.getByLabel('Potvrda nove lozinke').fill('NovaLozinka77');
    await page.getByRole('button', { name: 'Promeni lozinku' }).click();
    await page.getByText('Trenutna lozinka nije tačna.').waitFor();

    await page.getByLabel('Stara lozinka').fill(user.password);
    await page.getByRole('button', { name: 'Promeni lozinku' }).click();
    await page.getByText('Lozinka je uspešno promenjena.').waitFor();

    // Log out through the user menu, then the old password fails and the new one works.
    await page.getByRole('button', { name: 'Korisnički meni' }).click();
    await page.getByRole('button', { name: 'Odjava' }).click();
    await page.waitForURL(/\/aukcije$/);
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Prijavite se' }).waitFor();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Lozinka', { exact: true }).fill(user.password);
    await page.locator('form').getByRole('button', { name: 'Uloguj se' }).click();
    await page.getByText('Email ili lozinka nisu tačni!').waitFor();
    await login(page, { email: user.email, password: 'NovaLozinka77' });
    await context.close();
  });

  it('resets a forgotten password through the mailed link', async () => {
    const user = makeUser('reset');
    const { context, page } = await newPage(browser, server);
    await registerAndVerify(page, server, user);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Zaboravili ste lozinku?' }).click();
    await page.waitForURL(/\/zaboravljena-lozinka$/);
    // The lazy page may still be loading while the login form (also with an 'Email' field) is shown.
    await page.getByRole('heading', { name: 'Zaboravljena lozinka' }).waitFor();
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Pošalji link' }).click();
    await page.getByText('Ako nalog sa ovom adresom postoji').waitFor();
    const mail = await server.waitForMail(user.email, '/zaboravljena-lozinka/');
    const link = mail.match(/https?:\/\/\S*\/zaboravljena-lozinka\/[A-Za-z0-9_-]+/)?.[0];
    expect(link).toBeTruthy();
    await page.goto(link!);
    await page.getByLabel('Nova lozinka').fill('Resetovana55');
    await page.getByLabel('Potvrda nove lozinke').fill('Resetovana55');
    await page.getByRole('button', { name: 'Sačuvaj novu lozinku' }).click();
    await page.getByText('Lozinka je promenjena. Sada se možete ulogovati.').waitFor();
    await login(page, { email: user.email, password: 'Resetovana55' });
    await context.close();
  });

  it('keeps logged-out visitors out of protected pages and logged-in users out of /login', async () => {
    const { context, page } = await newPage(browser, server);
    for (const p of ['/profil', '/notifikacije', '/promena-lozinke', '/moje-aukcije', '/admin/dashboard']) {
      await page.goto(p);
      await page.waitForURL(/\/login$/);
    }
    const user = makeUser('guard');
    await registerAndVerify(page, server, user);
    await login(page, user);
    await page.goto('/login');
    await page.waitForURL(/\/aukcije$/);
    await page.goto('/registracija');
    await page.waitForURL(/\/aukcije$/);
    // Not an admin: the dashboard is a 404 for this user.
    await page.goto('/admin/dashboard');
    await page.getByRole('heading', { name: '404 Greška' }).waitFor();
    await context.close();
  });

  it('has no serious accessibility problems on the account pages', async () => {
    const { context, page } = await newPage(browser, server);
    for (const p of ['/login', '/registracija']) {
      await page.goto(p);
      await page.locator('form').waitFor();
      await checkA11y(page, p);
    }
    await context.close();
  });
});

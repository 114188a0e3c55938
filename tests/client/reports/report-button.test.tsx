/**
 * Issue 24, 'Prijavi' and its dialog: the reasons in Serbian ('Kupac nije platio' only for a member), 'Drugo' needs a
 * description before anything is sent, what is sent, the server's message under its field, the thanks. fetch (the
 * network boundary) answers from a table.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ReportButtonNow } from '../../../client/src/features/reports/report-button';
import { stubFetch } from '../app/test-utils';
import { renderWithApp } from '../auctions/render';

afterEach(() => vi.unstubAllGlobals());

async function openDialog(name: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Prijavi' }));
  return { user, dialog: screen.getByRole('dialog', { name }) };
}

describe('Prijavi', () => {
  it('offers the reasons of an auction; Drugo needs a description; sends the choice and thanks', async () => {
    const calls = stubFetch({ 'POST /api/reports/': { status: 201, body: { id: 5, status: 'open' } } });
    renderWithApp(<ReportButtonNow targetType="auction" targetId={12} />);
    const { user, dialog } = await openDialog('Prijavi aukciju');
    const reasons = within(dialog).getAllByRole('radio').map((r) => r.parentElement!.textContent);
    expect(reasons).toEqual(['Prevara', 'Zabranjen predmet', 'Pogrešna kategorija', 'Uvredljiv sadržaj', 'Neželjeni sadržaj (spam)', 'Drugo']);
    await user.click(within(dialog).getByRole('radio', { name: 'Drugo' }));
    await user.click(within(dialog).getByRole('button', { name: 'Pošalji prijavu' }));
    expect(within(dialog).getByText('Opišite razlog prijave.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox'), '  Traži uplatu van sajta. ');
    await user.click(within(dialog).getByRole('button', { name: 'Pošalji prijavu' }));
    await within(dialog).findByText('Prijava je poslata. Administrator će je pregledati.');
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ target_type: 'auction', target_id: 12, reason: 'other', text: 'Traži uplatu van sajta.' });
  });

  it("offers 'Kupac nije platio' for a member and shows the server's refusal under its field", async () => {
    stubFetch({
      'POST /api/reports/': {
        status: 400,
        body: { reason: ['Razlog „Kupac nije platio“ važi samo za člana koji je pobedio na vašoj aukciji.'], detail: 'x', code: 'not_your_winner' },
      },
    });
    renderWithApp(<ReportButtonNow targetType="member" targetId={3} />);
    const { user, dialog } = await openDialog('Prijavi člana');
    await user.click(within(dialog).getByRole('radio', { name: 'Kupac nije platio' }));
    await user.click(within(dialog).getByRole('button', { name: 'Pošalji prijavu' }));
    expect(await within(dialog).findByText(/važi samo za člana koji je pobedio/)).toBeTruthy();
  });
});

import { describe, it, expect } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Comments } from '../../../client/src/features/auctions/components/Comments';
import { commentsKey } from '../../../client/src/features/auctions/api/comments';
import { checkComment } from '../../../client/src/features/auctions/components/comment-validation';
import { renderWithApp, testUser } from './render';

const comments = [
  { id: 2, userId: 9, user: 'Ana', content: '<b>novi</b> komentar', created_at: '2026-01-02T10:00:00Z', is_seller: true },
  { id: 1, userId: testUser.id, user: testUser.first_name, content: 'stari', created_at: '2026-01-01T10:00:00Z', is_seller: false },
];

describe('comment check', () => {
  it('rejects empty, whitespace-only and over 300 characters', () => {
    expect(checkComment('')).toBe('Komentar ne može biti prazan.');
    expect(checkComment('   \n ')).toBe('Komentar ne može biti prazan.');
    expect(checkComment('a'.repeat(301))).toBe('Komentar ne može biti duži od 300 karaktera.');
    expect(checkComment('a'.repeat(300))).toBeNull();
  });
});

describe('<Comments>', () => {
  it('shows the form messages', async () => {
    const user = userEvent.setup();
    renderWithApp(<Comments auctionId={5} sellerId={9} />, { seed: (qc) => qc.setQueryData(commentsKey(5), []) });
    await user.click(screen.getByRole('button', { name: 'Pošalji' }));
    expect(screen.getByRole('alert').textContent).toBe('Komentar ne može biti prazan.');
    const box = screen.getByLabelText('Vaš komentar');
    await user.type(box, '   ');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Pošalji' }));
    expect(screen.getByRole('alert').textContent).toBe('Komentar ne može biti prazan.');
    await user.clear(box);
    await user.click(box);
    await user.paste('x'.repeat(301));
    await user.click(screen.getByRole('button', { name: 'Pošalji' }));
    expect(screen.getByRole('alert').textContent).toBe('Komentar ne može biti duži od 300 karaktera.');
  });

  it('lists comments newest first as plain text, labels the seller, offers delete to the author only', async () => {
    const { container } = renderWithApp(<Comments auctionId={5} sellerId={9} />, { seed: (qc) => qc.setQueryData(commentsKey(5), comments) });
    const items = await screen.findAllByRole('listitem');
    expect(items[0].textContent).toContain('Ana');
    expect(items[0].textContent).toContain('(Prodavac)');
    expect(items[0].textContent).toContain('<b>novi</b> komentar');
    expect(container.querySelector('b')).toBeNull();
    expect(items[1].textContent).not.toContain('(Prodavac)');
    expect(items[0].querySelector('button')).toBeNull();
    expect(items[1].querySelector('button')?.textContent).toBe('Obriši komentar');
  });

  it("links every author's name to their profile, the seller's with the score beside it (issue 23)", async () => {
    renderWithApp(<Comments auctionId={5} sellerId={9} sellerRating={{ positive: 4, negative: 1 }} />, { seed: (qc) => qc.setQueryData(commentsKey(5), comments) });
    const items = await screen.findAllByRole('listitem');
    expect(screen.getByRole('link', { name: 'Ana' }).getAttribute('href')).toBe('/clan/9');
    expect(screen.getByRole('link', { name: testUser.first_name }).getAttribute('href')).toBe(`/clan/${testUser.id}`);
    expect(items[0].querySelector('.rating-score')?.textContent).toContain('+4 / −1');
    expect(items[1].querySelector('.rating-score')).toBeNull();
  });

  it('lets the seller delete every comment and shows the empty text', async () => {
    const { qc } = renderWithApp(<Comments auctionId={5} sellerId={testUser.id} />, { seed: (c) => c.setQueryData(commentsKey(5), comments) });
    expect((await screen.findAllByRole('button', { name: 'Obriši komentar' })).length).toBe(2);
    act(() => {
      qc.setQueryData(commentsKey(5), []);
    });
    expect(await screen.findByText('Još nema komentara! Budi prvi koji će komentarisati ovu aukciju!')).toBeTruthy();
  });
});

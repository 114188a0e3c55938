import { describe, it, expect, vi } from 'vitest';
import { render, screen, fireEvent } from '@testing-library/react';
import { Pagination } from '../../../client/src/components/Pagination';
import { descriptionPreview } from '../../../client/src/features/auctions/components/description-preview';

describe('<Pagination>', () => {
  it("disables 'Prethodna' on page 1 and shows the page number", () => {
    const onPage = vi.fn();
    render(<Pagination page={1} hasPrevious={false} hasNext onPage={onPage} />);
    const prev = screen.getByRole('button', { name: 'Prethodna' }) as HTMLButtonElement;
    const next = screen.getByRole('button', { name: 'Sledeća' }) as HTMLButtonElement;
    expect(prev.disabled).toBe(true);
    expect(next.disabled).toBe(false);
    expect(screen.getByText('1')).toBeTruthy();
    fireEvent.click(next);
    expect(onPage).toHaveBeenCalledWith(2);
  });

  it("disables 'Sledeća' when there is no next page", () => {
    const onPage = vi.fn();
    render(<Pagination page={3} hasPrevious hasNext={false} onPage={onPage} />);
    expect((screen.getByRole('button', { name: 'Sledeća' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Prethodna' }));
    expect(onPage).toHaveBeenCalledWith(2);
  });
});

describe('descriptionPreview', () => {
  it('keeps the first 10 words with an ellipsis', () => {
    expect(descriptionPreview('jedan dva tri četiri pet šest sedam osam devet deset jedanaest')).toBe(
      'jedan dva tri četiri pet šest sedam osam devet deset...',
    );
    expect(descriptionPreview('kratak opis')).toBe('kratak opis');
  });
});

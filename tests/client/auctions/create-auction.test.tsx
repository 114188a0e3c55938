import { describe, it, expect, vi, afterEach } from 'vitest';
import { screen, fireEvent, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CreateAuctionPage from '../../../client/src/features/auctions/pages/CreateAuctionPage';
import { validateCreate, type CreateValues } from '../../../client/src/features/auctions/components/create-validation';
import { renderWithApp } from './render';

const MB = 1024 * 1024;
const image = (name: string, size = 1000) => {
  const f = new File([new Uint8Array(1)], name, { type: 'image/png' });
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

const valid: CreateValues = {
  title: 'Bicikl',
  description: 'Malo korišćen',
  current_price: '150.7',
  auction_duration: '4',
  city: 'Niš',
  phone_number: '0641234567',
  category: 'sports',
  buy_now_price: '',
  reserve_price: '',
};

describe('validateCreate', () => {
  it('accepts a valid form and floors the price', () => {
    const r = validateCreate(valid, 1);
    expect(r.errors).toEqual({});
    expect(r.data?.current_price).toBe(150);
  });

  it('gives the messages of spec §5 per field', () => {
    const r = validateCreate({ ...valid, title: ' ', description: '', current_price: '99', city: '', phone_number: '641234567', category: '' }, 0);
    expect(r.errors).toEqual({
      title: 'Naslov je obavezan.',
      description: 'Opis je obavezan.',
      current_price: 'Minimalna cena je 100 dinara.',
      city: 'Grad je obavezan.',
      phone_number: 'Broj telefona nije validan. Mora počinjati sa 0 i imati najmanje 9 cifara.',
      category: 'Kategorija je obavezna.',
      images: 'Morate odabrati barem jednu sliku.',
    });
    expect(validateCreate(valid, 7).errors.images).toBe('Maksimalno možete odabrati 6 slika.');
  });
});

describe('<CreateAuctionPage>', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prefills city and phone, shows per-field messages and clears a message on edit', async () => {
    const user = userEvent.setup();
    renderWithApp(<CreateAuctionPage />, { path: '/nova-aukcija' });
    expect((screen.getByLabelText('Grad') as HTMLInputElement).value).toBe('Novi Sad');
    expect((screen.getByLabelText('Broj telefona') as HTMLInputElement).value).toBe('0641234567');

    const duration = screen.getByLabelText('Trajanje aukcije') as HTMLSelectElement;
    expect(duration.value).toBe('4');
    expect(Array.from(duration.options).map((o) => [o.textContent, o.disabled])).toEqual([
      ['1 dan', false],
      ['3 dana', false],
      ['4 dana', false],
      ['7 dana', false],
      ['10 dana (uskoro)', true],
    ]);
    expect((screen.getByLabelText('Naslov') as HTMLInputElement).maxLength).toBe(50);

    await user.click(screen.getByRole('button', { name: 'Postavi aukciju' }));
    expect(screen.getByText('Naslov je obavezan.')).toBeTruthy();
    expect(screen.getByText('Opis je obavezan.')).toBeTruthy();
    expect(screen.getByText('Minimalna cena je 100 dinara.')).toBeTruthy();
    expect(screen.getByText('Kategorija je obavezna.')).toBeTruthy();
    expect(screen.getByText('Morate odabrati barem jednu sliku.')).toBeTruthy();
    expect(screen.queryByText('Grad je obavezan.')).toBeNull();

    await user.type(screen.getByLabelText('Naslov'), 'B');
    expect(screen.queryByText('Naslov je obavezan.')).toBeNull();
    expect(screen.getByText('Opis je obavezan.')).toBeTruthy();

    await user.clear(screen.getByLabelText('Broj telefona'));
    await user.type(screen.getByLabelText('Broj telefona'), '12345');
    await user.click(screen.getByRole('button', { name: 'Postavi aukciju' }));
    expect(screen.getByText('Broj telefona nije validan. Mora počinjati sa 0 i imati najmanje 9 cifara.')).toBeTruthy();
    // Still editing: nothing was sent.
    expect(screen.queryByText('Postavljanje aukcije...')).toBeNull();
  });

  it('alerts about a file over 6 MB and abandons the selection', () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    renderWithApp(<CreateAuctionPage />, { path: '/nova-aukcija' });
    const input = screen.getByLabelText('Slike (do 6, najviše 6 MB svaka)');
    fireEvent.change(input, { target: { files: [image('mala.png'), image('velika.jpg', 6 * MB + 1)] } });
    expect(alert).toHaveBeenCalledWith('velika.jpg prelazi veličinu ograničenja od 6 MB.');
    expect(screen.queryAllByTestId('image-preview')).toHaveLength(0);
  });

  it('adds, reorders by keyboard buttons, removes, and refuses a pick above 6 in total', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    renderWithApp(<CreateAuctionPage />, { path: '/nova-aukcija' });
    const input = screen.getByLabelText('Slike (do 6, najviše 6 MB svaka)');
    fireEvent.change(input, { target: { files: ['a.png', 'b.png', 'c.png', 'd.png'].map((n) => image(n)) } });
    const names = () => screen.getAllByTestId('image-preview').map((li) => li.getAttribute('data-name'));
    expect(names()).toEqual(['a.png', 'b.png', 'c.png', 'd.png']);

    fireEvent.change(input, { target: { files: ['e.png', 'f.png', 'g.png'].map((n) => image(n)) } });
    expect(alert).toHaveBeenCalledWith('Možete odabrati maksimalno 6 slika.');
    expect(names()).toHaveLength(4);

    fireEvent.click(screen.getByRole('button', { name: 'Pomeri sliku 2 napred' }));
    expect(names()).toEqual(['b.png', 'a.png', 'c.png', 'd.png']);
    fireEvent.click(screen.getByRole('button', { name: 'Pomeri sliku 3 nazad' }));
    expect(names()).toEqual(['b.png', 'a.png', 'd.png', 'c.png']);
    const first = screen.getAllByTestId('image-preview')[0];
    expect((within(first).getByRole('button', { name: 'Pomeri sliku 1 napred' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Ukloni sliku 1' }));
    expect(names()).toEqual(['a.png', 'd.png', 'c.png']);
  });

  it('takes image files only', () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    renderWithApp(<CreateAuctionPage />, { path: '/nova-aukcija' });
    const txt = new File(['x'], 'beleska.txt', { type: 'text/plain' });
    fireEvent.change(screen.getByLabelText('Slike (do 6, najviše 6 MB svaka)'), { target: { files: [txt] } });
    expect(alert).toHaveBeenCalled();
    expect(screen.queryAllByTestId('image-preview')).toHaveLength(0);
  });
});

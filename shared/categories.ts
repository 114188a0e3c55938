/** Categories of spec §3. `all-auctions` is a filter value only, never stored on an auction. */
export const CATEGORIES = [
  { value: 'electronics', label: 'Elektronika' },
  { value: 'appliances', label: 'Kućni aparati' },
  { value: 'jewelry', label: 'Nakit i Satovi' },
  { value: 'clothing', label: 'Odeća i Obuća' },
  { value: 'toys', label: 'Igračke i Video igre' },
  { value: 'furniture', label: 'Nameštaj' },
  { value: 'sports', label: 'Sport i Oprema' },
  { value: 'collectibles', label: 'Kolekcionarstvo i Antikviteti' },
  { value: 'media', label: 'Knjige, Filmovi i Muzika' },
  { value: 'tools', label: 'Alati i Oprema za rad' },
  { value: 'vehicles', label: 'Automobili i Motocikli' },
  { value: 'real-estate', label: 'Nekretnine' },
  { value: 'food', label: 'Hrana i Piće' },
  { value: 'other', label: 'Ostalo' },
] as const;

export type Category = (typeof CATEGORIES)[number]['value'];
export const CATEGORY_VALUES = CATEGORIES.map((c) => c.value) as unknown as readonly [Category, ...Category[]];
export const ALL_AUCTIONS = 'all-auctions' as const;
export const ALL_AUCTIONS_LABEL = 'Sve aukcije';

export function categoryLabel(value: string): string {
  if (value === ALL_AUCTIONS) return ALL_AUCTIONS_LABEL;
  return CATEGORIES.find((c) => c.value === value)?.label ?? value;
}

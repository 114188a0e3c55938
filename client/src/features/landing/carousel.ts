/** Where a card sits relative to the centre of a wrapping carousel. */
export type SlotPosition = 'center' | 'prev' | 'next' | 'hidden';

export function slotPosition(index: number, active: number, length: number): SlotPosition {
  if (length === 0) return 'hidden';
  if (index === active) return 'center';
  // With two cards the other one is both neighbours: show it on the right.
  if (length === 2) return 'next';
  if (index === (active - 1 + length) % length) return 'prev';
  if (index === (active + 1) % length) return 'next';
  return 'hidden';
}

export const wrap = (i: number, length: number) => (length === 0 ? 0 : ((i % length) + length) % length);

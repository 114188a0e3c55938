/**
 * Serbian texts of the member block list ("crna lista", issue 24): the server's answers. The refusal's sentence
 * is also what a blocked member sees instead of the bid box (client: the detail's lazy BuyNowBox chunk, so it
 * stays out of the first load); the UI's words are in blocks-ui.ts, loaded only by the pages that show them.
 */
import { MAX_BLOCKED_MEMBERS } from '../rules/blocks';

export const blockTexts = {
  blockedBySeller: 'Prodavac vam je onemogućio učešće na svojim aukcijama.',
  userInvalid: 'Član nije ispravno naveden.',
  blockSelf: 'Ne možete blokirati sebe.',
  unknownMember: 'Član ne postoji.',
  tooMany: `Možete blokirati najviše ${MAX_BLOCKED_MEMBERS} članova.`,
} as const;

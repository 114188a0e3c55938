import { DESCRIPTION_PREVIEW_WORDS } from '@shared/rules/limits';

/** The first 10 words with an ellipsis (spec §5 "Card"); short descriptions stay as they are. */
export function descriptionPreview(text: string, words = DESCRIPTION_PREVIEW_WORDS): string {
  const all = text.trim().split(/\s+/).filter(Boolean);
  if (all.length <= words) return all.join(' ');
  return `${all.slice(0, words).join(' ')}...`;
}

import { COMMENT_MAX } from '@shared/rules/limits';
import { sr } from '@shared/texts/sr';

/** Comment form check of spec §5: not empty / whitespace-only, at most 300 characters. */
export function checkComment(text: string): string | null {
  if (text.trim() === '') return sr.comments.required;
  if (text.trim().length > COMMENT_MAX) return sr.comments.tooLong;
  return null;
}

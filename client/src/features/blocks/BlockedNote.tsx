import { blockTexts } from '@shared/texts/blocks';

/**
 * What the detail's bid box shows to a member the seller blocked (issue 24), instead of the inputs. Its own lazy
 * chunk: the detail page is at its first-load budget, and only a blocked member needs the sentence.
 */
export default function BlockedNote() {
  return (
    <p className="detail__note" role="status" data-testid="blocked-by-seller">
      {blockTexts.blockedBySeller}
    </p>
  );
}

import { useEffect } from 'react';

/** Sets document.title to '<title> | Aukcije' while the page is shown. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (!title) return;
    const previous = document.title;
    document.title = `${title} | Aukcije`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}

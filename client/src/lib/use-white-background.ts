import { useEffect } from 'react';

/** Login and registration use a white page background (spec §2). */
export function useWhiteBackground(): void {
  useEffect(() => {
    document.body.classList.add('page-bg-white');
    return () => document.body.classList.remove('page-bg-white');
  }, []);
}

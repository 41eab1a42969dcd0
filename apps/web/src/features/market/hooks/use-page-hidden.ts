import { useEffect, useState } from 'react';

/** Whether the tab is hidden (`document.hidden`), following `visibilitychange`. */
export function usePageHidden(): boolean {
  const [isPageHidden, setPageHidden] = useState(false);
  useEffect(() => {
    const onVisibility = () => setPageHidden(document.hidden);
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);
  return isPageHidden;
}

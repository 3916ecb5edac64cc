import { useEffect, useState } from 'react';

/** True once the browser has been idle after the page loaded (or 5 s at most): the moment for what can wait. */
export function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const done = () => setIdle(true);
    if (typeof requestIdleCallback === 'undefined') {
      const timer = setTimeout(done, 2000);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(done, { timeout: 5000 });
    return () => cancelIdleCallback(handle);
  }, []);
  return idle;
}

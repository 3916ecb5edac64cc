import { createContext, use } from 'react';
import { useLocation } from 'react-router-dom';
import { pageDataId, type ServedPageData } from '../../common/page-html.ts';

/**
 * The data a page was rendered with by the server (common/page-html.ts): the page shows it until the device's own
 * copy is read, so that the browser's first render is the server's and hydrates it. Knows no feature: each reads
 * its own shape.
 */
const PageDataContext = createContext<ServedPageData | undefined>(undefined);
export const PageDataProvider = PageDataContext.Provider;

/** The data this document was rendered with, if the server rendered it with data; none while rendering one. */
export function servedPageData(): ServedPageData | undefined {
  if (typeof document === 'undefined') return undefined;
  const text = document.getElementById(pageDataId)?.textContent;
  return text ? (JSON.parse(text) as ServedPageData) : undefined;
}

/** The data the page at the current path was rendered with: none once the app has gone to another path. */
export function useServedData<T>(): T | undefined {
  const served = use(PageDataContext);
  const { pathname } = useLocation();
  return served?.path === pathname ? (served.data as T) : undefined;
}

/** The site's address, as the server knows it (`PUBLIC_URL`), else as the browser does. */
export function useSiteOrigin(): string {
  const served = use(PageDataContext);
  return served?.origin ?? (typeof location === 'undefined' ? '' : location.origin);
}

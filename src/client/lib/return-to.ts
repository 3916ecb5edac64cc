/**
 * Where to go after logging in: the page a signed-out visitor asked for (a deep link, a bookmark). Kept for
 * this tab only (sessionStorage), and only as a path on this site.
 */
const key = 'tutorbook:return-to';

export const rememberReturnTo = (path: string) => sessionStorage.setItem(key, path);

/** The remembered path, once: it is forgotten as it is read. */
export function takeReturnTo(): string | undefined {
  const path = sessionStorage.getItem(key);
  sessionStorage.removeItem(key);
  // A path on this site, never `//elsewhere.example` or an absolute URL.
  return path && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : undefined;
}

import { pageUserMeta } from '../../common/page-user.ts';
import type { Me } from '../../common/session.ts';

/** The user a signed-in page was rendered for by the server (common/page-user.ts), if it was; none while rendering one. */
export function servedUser(): Me | undefined {
  if (typeof document === 'undefined') return undefined;
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${pageUserMeta}"]`)?.content;
  return content ? (JSON.parse(content) as Me) : undefined;
}

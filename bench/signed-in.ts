import { insertVerifiedUsers } from '../src/server/auth/verified-users.ts';
import type { Services } from '../src/server/server.ts';

const password = 'bench passphrase 1';

/**
 * Verified users written straight to an SQL engine's database (one password hash for all), each signed in
 * through better-auth as a browser would be: with their session cookies. bench/firestore.ts has its own, through
 * better-auth's adapter.
 */
export async function signedInUsers(services: Services, count: number, prefix: string) {
  const hash = await (await services.auth.$context).password.hash(password);
  const users = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    name: `${prefix} ${i}`,
    email: `${prefix}-${i}@example.com`,
  }));
  await insertVerifiedUsers(services.db, users, hash);
  const cookies: string[] = [];
  for (let i = 0; i < users.length; i += 8) {
    const batch = await Promise.all(
      users.slice(i, i + 8).map(async (u) => {
        const response = await services.auth.api.signInEmail({ body: { email: u.email, password }, asResponse: true });
        return response.headers
          .getSetCookie()
          .map((line) => line.split(';')[0])
          .join('; ');
      }),
    );
    cookies.push(...batch);
  }
  return users.map((u, i) => ({ ...u, cookie: cookies[i]! }));
}

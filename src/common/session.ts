import { z } from './zod.ts';
import { categories, roles } from './roles.ts';

/** What `GET /api/me` returns for a signed-in user. */
export const meSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  role: z.enum(roles),
  categories: z.array(z.enum(categories)),
});
export type Me = z.infer<typeof meSchema>;

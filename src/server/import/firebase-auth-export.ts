import { z } from 'zod';
import type { FirebaseHashConfig } from '../auth/firebase-password.ts';

/**
 * The two files the owner brings from Firebase Authentication: `firebase auth:export users.json
 * --format=json`, and the project's password-hash parameters pasted from the console. Anything that does not
 * read as such stops the import with a message naming the file and the record (nothing is half-imported).
 */

/** Stops the import before it writes anything; the CLI prints just the message (it names what is wrong). */
export class ImportStoppedError extends Error {}

const base64 = z.string().regex(/^[A-Za-z0-9+/_-]+={0,2}$/, 'is not base64');

/** One user of `auth:export --format=json`; fields the import does not use are let through unread. */
const exportedUserSchema = z.object({
  localId: z.string().min(1, 'is empty'),
  email: z.string().optional(),
  emailVerified: z.boolean().optional(),
  displayName: z.string().optional(),
  photoUrl: z.string().optional(),
  passwordHash: base64.optional(),
  salt: base64.optional(),
  createdAt: z.union([z.string().regex(/^\d+$/, 'is not milliseconds'), z.number()]).optional(),
  disabled: z.boolean().optional(),
  providerUserInfo: z
    .array(z.object({ providerId: z.string(), rawId: z.string().optional(), email: z.string().optional() }))
    .optional(),
});
export type ExportedUser = z.infer<typeof exportedUserSchema>;

export function parseAuthExport(text: string, file: string): ExportedUser[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ImportStoppedError(`${file} is not JSON (${(error as Error).message}).`);
  }
  const users = (json as { users?: unknown } | null)?.users;
  if (!Array.isArray(users))
    throw new ImportStoppedError(`${file} has no "users" list: is it from \`firebase auth:export --format=json\`?`);
  return users.map((user, index) => {
    const parsed = exportedUserSchema.safeParse(user);
    const name = `${file}: users[${index}]${describeUser(user)}`;
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ImportStoppedError(`${name}: ${issue.path.join('.') || 'the record'} ${issue.message}.`);
    }
    if (Boolean(parsed.data.passwordHash) !== Boolean(parsed.data.salt))
      throw new ImportStoppedError(`${name}: a password hash needs both passwordHash and salt.`);
    return parsed.data;
  });
}

function describeUser(user: unknown): string {
  const { localId, email } = (user ?? {}) as { localId?: unknown; email?: unknown };
  const parts = [typeof localId === 'string' ? `localId ${localId}` : '', typeof email === 'string' ? email : ''];
  const said = parts.filter(Boolean).join(', ');
  return said ? ` (${said})` : '';
}

const hashConfigSchema = z.object({
  algorithm: z.literal('SCRYPT', 'must be SCRYPT').optional(),
  signerKey: base64,
  saltSeparator: z.union([base64, z.literal('')]),
  rounds: z.coerce.number().int().min(1).max(16),
  memCost: z.coerce.number().int().min(1).max(20),
});

/** The console's names for each parameter, and the camelCase ones a JSON file may use. */
const keyNames: Record<string, keyof z.infer<typeof hashConfigSchema>> = {
  algorithm: 'algorithm',
  base64_signer_key: 'signerKey',
  signerKey: 'signerKey',
  base64_salt_separator: 'saltSeparator',
  saltSeparator: 'saltSeparator',
  rounds: 'rounds',
  mem_cost: 'memCost',
  memCost: 'memCost',
};

/**
 * The "Password hash parameters" block as the console shows it (`hash_config { algorithm: SCRYPT,
 * base64_signer_key: …, base64_salt_separator: …, rounds: 8, mem_cost: 14, }`), or the same keys as JSON.
 */
export function parseHashConfig(text: string, file: string): FirebaseHashConfig {
  const values: Record<string, unknown> = {};
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(trimmed) as Record<string, unknown>;
    } catch (error) {
      throw new ImportStoppedError(`${file} is not JSON (${(error as Error).message}).`);
    }
    const inner = (json.hash_config ?? json) as Record<string, unknown>;
    for (const [key, value] of Object.entries(inner)) if (keyNames[key]) values[keyNames[key]] = value;
  } else {
    for (const match of trimmed.matchAll(/([a-z_0-9]+)\s*:\s*"?([^,\s"}]*)"?/gi)) {
      const key = keyNames[match[1]!];
      if (key) values[key] = match[2];
    }
  }
  const parsed = hashConfigSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = Object.entries(keyNames).find(([, v]) => v === issue.path[0])?.[0] ?? String(issue.path[0]);
    throw new ImportStoppedError(
      `${file}: ${field} ${issue.code === 'invalid_type' && values[issue.path[0] as string] === undefined ? 'is missing' : issue.message}. ` +
        'Paste the hash_config block from the console (Authentication → Users → ⋮ → Password hash parameters).',
    );
  }
  const { signerKey, saltSeparator, rounds, memCost } = parsed.data;
  return { signerKey, saltSeparator, rounds, memCost };
}

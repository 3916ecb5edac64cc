import { createECDH } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadEnv } from '../env.ts';
import { newVapidKeysEnv, resolveVapidKeys, vapidKeysFile } from './vapid.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-vapid-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Whether the private key is the public key's, by P-256 itself. */
const isPair = ({ publicKey, privateKey }: { publicKey: string; privateKey: string }) => {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return ecdh.getPublicKey('base64url') === publicKey;
};

test('without keys in the environment, a pair is made once into the data folder (0600) and kept', async () => {
  const folder = path.join(dataDir, 'first', 'nested');
  const env = loadEnv({ DATA_DIR: folder });
  const first = resolveVapidKeys(env);
  expect(first.subject).toBe('mailto:hello@tutorbook.co.za');
  expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
  expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
  expect(isPair(first)).toBe(true);

  const file = path.join(folder, vapidKeysFile);
  expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
    publicKey: first.publicKey,
    privateKey: first.privateKey,
  });
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  // Nothing else is left beside it (the draft it was written to).
  expect(await readdir(folder)).toEqual([vapidKeysFile]);

  // The second start, and a start with another subject, sign with the same pair.
  expect(resolveVapidKeys(loadEnv({ DATA_DIR: folder }))).toEqual(first);
  expect(resolveVapidKeys(loadEnv({ DATA_DIR: folder, VAPID_SUBJECT: 'https://tutorbook.co.za' }))).toEqual({
    ...first,
    subject: 'https://tutorbook.co.za',
  });
});

test('keys in the environment win, and no file is made', async () => {
  const folder = path.join(dataDir, 'from-env');
  const keys = newVapidKeysEnv();
  expect(resolveVapidKeys(loadEnv({ DATA_DIR: folder, ...keys }))).toEqual({
    subject: 'mailto:hello@tutorbook.co.za',
    publicKey: keys.VAPID_PUBLIC_KEY,
    privateKey: keys.VAPID_PRIVATE_KEY,
  });
  await expect(stat(path.join(folder, vapidKeysFile))).rejects.toMatchObject({ code: 'ENOENT' });
});

test('a file that holds no key pair stops the start, and is left as it is', async () => {
  const folder = path.join(dataDir, 'broken');
  const env = loadEnv({ DATA_DIR: folder });
  resolveVapidKeys(env);
  const file = path.join(folder, vapidKeysFile);
  const other = newVapidKeysEnv();
  const stored = JSON.parse(await readFile(file, 'utf8')) as { publicKey: string };
  for (const content of [
    '',
    '{"publicKey":',
    JSON.stringify({ publicKey: stored.publicKey }),
    JSON.stringify({ publicKey: stored.publicKey, privateKey: other.VAPID_PRIVATE_KEY }),
    JSON.stringify({ publicKey: 'short', privateKey: other.VAPID_PRIVATE_KEY }),
  ]) {
    await writeFile(file, content);
    expect(() => resolveVapidKeys(env), content).toThrow(
      `${file} holds no VAPID key pair ({ "publicKey": …, "privateKey": … }, base64url). Put the pair back, or delete`,
    );
    expect(await readFile(file, 'utf8')).toBe(content);
  }
});

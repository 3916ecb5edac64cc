import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Timestamp, type CollectionReference, type Firestore } from 'firebase-admin/firestore';
import { FirebaseScrypt } from 'firebase-scrypt';
import type { FirebaseHashConfig } from '../auth/firebase-password.ts';
import { emulatorFirestore } from './firestore-client.ts';

/**
 * The old Firebase site as it lives on Google (spec §3), on the emulator: its records in the project's
 * `(default)` database, with the old field names, and its Authentication export with password hashes made by
 * Firebase's own scrypt. For the tests of what surrounds the import (where the new site's data may live).
 */
export interface OldSite {
  projectId: string;
  tag: string;
  /** The account whose password is known, as an owner would have one (their own). */
  known: { uid: string; email: string; password: string };
  /** A second account with a password, and one with Google only. */
  other: { uid: string; email: string; password: string };
  google: { uid: string; email: string; googleId: string };
  hashConfig: FirebaseHashConfig;
  /** `users.json` and `hash.txt`, as `firebase auth:export` and the console give them. */
  authExport: string;
  hashConfigFile: string;
}

export async function seedOldSite(emulatorHost: string, dir: string): Promise<OldSite> {
  const tag = crypto.randomUUID().slice(0, 8);
  const projectId = `old-site-${tag}`;
  const hashConfig: FirebaseHashConfig = {
    signerKey: randomBytes(64).toString('base64'),
    saltSeparator: 'Bw==',
    rounds: 8,
    memCost: 14,
  };
  const known = { uid: `owner${tag}`, email: `owner-${tag}@example.com`, password: 'the owner’s old password' };
  const other = { uid: `thandi${tag}`, email: `thandi-${tag}@example.com`, password: 'thandi old password' };
  const google = { uid: `lerato${tag}`, email: `lerato-${tag}@example.com`, googleId: `10${Date.now()}` };
  const passwordUser = async (user: { uid: string; email: string; password: string }, name: string) => {
    const salt = randomBytes(16).toString('base64');
    return {
      localId: user.uid,
      email: user.email,
      emailVerified: true,
      displayName: name,
      passwordHash: await new FirebaseScrypt(hashConfig).hash(user.password, salt),
      salt,
      createdAt: String(Date.parse('2025-03-01T08:00:00Z')),
      providerUserInfo: [{ providerId: 'password', rawId: user.email, email: user.email }],
    };
  };
  const users = [
    await passwordUser(known, 'Nomsa Owner'),
    await passwordUser(other, 'Thandi Mokoena'),
    {
      localId: google.uid,
      email: google.email,
      emailVerified: true,
      displayName: 'Lerato Khumalo',
      providerUserInfo: [{ providerId: 'google.com', rawId: google.googleId, email: google.email }],
      createdAt: String(Date.parse('2025-04-01T08:00:00Z')),
    },
  ];
  const authExport = path.join(dir, `users-${tag}.json`);
  await writeFile(authExport, JSON.stringify({ users }, null, 2));
  const hashConfigFile = path.join(dir, `hash-${tag}.txt`);
  await writeFile(
    hashConfigFile,
    `hash_config {\n  algorithm: SCRYPT,\n  base64_signer_key: ${hashConfig.signerKey},\n  base64_salt_separator: ${hashConfig.saltSeparator},\n  rounds: ${hashConfig.rounds},\n  mem_cost: ${hashConfig.memCost},\n}\n`,
  );

  const { db, close } = emulatorFirestore(emulatorHost, projectId);
  try {
    const at = (iso: string) => Timestamp.fromDate(new Date(iso));
    const batch = db.batch();
    batch.set(db.doc(`modules/calc${tag}`), { name: 'Introduction To Calculus', category: 'Mathematics', price: 95 });
    batch.set(db.doc(`modules/disc${tag}`), { name: `Discrete Maths ${tag}`, category: 'Mathematics', price: 'R85' });
    batch.set(db.doc(`questions/q1${tag}`), {
      title: 'How do I reverse a linked list?',
      text: 'In Java, without a second list.',
      createdAt: at('2025-05-02T10:00:00Z'),
      asked_by: 'Thandi Mokoena',
      user_id: other.uid,
      upvotes: 3,
      downvotes: 1,
    });
    batch.set(db.doc(`questions/q1${tag}/answers/a1${tag}`), {
      text: 'Walk it once, turning each next pointer around.',
      createdAt: at('2025-05-02T11:00:00Z'),
      answered_by: 'Lerato Khumalo',
      user_id: google.uid,
    });
    batch.set(db.doc(`bookings/b1${tag}`), {
      student_name: 'Thandi Mokoena',
      student_email: other.email,
      module_name: 'Introduction To Calculus',
      module_category: 'Mathematics',
      date: '2025-06-10',
      timeslot1: '14:00',
      timeslot2: '16:00',
      timeslot3: '09:30',
      hours: 2,
      concepts: 'Limits and the chain rule',
      status: 'Pending',
      createdAt: at('2025-06-01T08:00:00Z'),
      uid: other.uid,
    });
    batch.set(db.doc(`enrolments/${other.uid}`), {
      uid: other.uid,
      name: 'Thandi Mokoena',
      email: other.email,
      modules: ['Introduction To Calculus'],
    });
    await batch.commit();
  } finally {
    await close();
  }
  return { projectId, tag, known, other, google, hashConfig, authExport, hashConfigFile };
}

/** Every document of one database of a project, subcollections included, by path: "changes nothing" to the byte. */
export async function snapshotDatabase(
  emulatorHost: string,
  projectId: string,
  databaseId = '(default)',
): Promise<Record<string, unknown>> {
  const { db, close } = emulatorFirestore(emulatorHost, projectId, databaseId);
  try {
    return await snapshotOf(db);
  } finally {
    await close();
  }
}

export async function snapshotOf(db: Firestore): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const walk = async (collections: CollectionReference[]) => {
    for (const collection of collections)
      for (const doc of (await collection.get()).docs) {
        out[doc.ref.path] = doc.data();
        await walk(await doc.ref.listCollections());
      }
  };
  await walk(await db.listCollections());
  return out;
}

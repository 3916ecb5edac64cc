import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { categories } from '../common/roles.ts';
import { sqliteFileOf } from './db/create-db.ts';
import { loadEnv } from './env.ts';
import { isAppError } from './http/errors.ts';
import type { FirebaseHashConfig } from './auth/firebase-password.ts';
import {
  ImportStoppedError,
  parseAuthExport,
  parseHashConfig,
  type ExportedUser,
} from './import/firebase-auth-export.ts';
import { requireSeparateTarget } from './import/import-target.ts';
import { readSecretLine, requireHashConfigVerifies } from './import/password-check.ts';
import { accessChanged } from './events/events.ts';
import { formatReport, importFirebase } from './import/firebase-import.ts';
import { addStaff, listStaffMembers, removeStaff } from './modules/staff/staff.usecases.ts';
import { createServices } from './server.ts';

/** `npm run cli -- staff add|list|remove`: staff accounts are made here, never through the API. */
const program = new Command('cli').description('TutorBook administration').showHelpAfterError();
const staff = program.command('staff').description('admins and tutors');

async function withServices(fn: (s: Awaited<ReturnType<typeof createServices>>) => Promise<void>) {
  const env = loadEnv();
  if (!hasDatabase(env)) return;
  const services = await startServices(env);
  if (!services) return;
  try {
    await fn(services);
    // Send the invitation now if we can; otherwise it waits in the outbox for the server's worker.
    await services.worker.runOnce();
  } catch (error) {
    console.error(isAppError(error) ? `Error: ${error.message}` : error);
    process.exitCode = 1;
  } finally {
    await services.close();
  }
}

/**
 * Whether the server's SQLite file is there. Staff commands work on the server's data: run without the server's
 * `DATA_DIR` (or `DATABASE_URL`), they would make an empty database of their own and find "No staff yet.".
 */
function hasDatabase(env: ReturnType<typeof loadEnv>): boolean {
  const file = sqliteFileOf(env.databaseUrl);
  if (file === undefined || existsSync(file)) return true;
  console.error(
    `Error: there is no database at ${file}. The command line works on the server's data: give it the server's ` +
      'DATA_DIR or DATABASE_URL (npm start and npm run cli both read them from .env).',
  );
  process.exitCode = 1;
  return false;
}

/**
 * The services on DATABASE_URL, quieter than the server's; a start that is refused (a database that is not
 * TutorBook's, one that cannot be reached) is printed as main.ts prints it, as its message, and ends the command.
 */
async function startServices(env: ReturnType<typeof loadEnv>) {
  try {
    return await createServices({ ...env, logLevel: env.logLevel === 'info' ? 'warn' : env.logLevel });
  } catch (error) {
    console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    return undefined;
  }
}

const addedMessage = {
  promoted: (email: string, role: string) => `${email} is now ${role}.`,
  invited: (email: string, role: string) => `Invited ${email} as ${role}; an e-mail to set a password is on its way.`,
  reclaimed: (email: string, role: string) =>
    `${email} had signed up but never verified the address, so its password and sessions were removed. ` +
    `Invited as ${role}; an e-mail to set a password is on its way.`,
};

staff
  .command('add')
  .argument('<email>', 'e-mail of an existing account, or of the person to invite')
  .addOption(new Option('--role <role>', 'staff role').choices(['admin', 'tutor']).makeOptionMandatory())
  .addOption(new Option('--category <category...>', 'tutor category (repeatable)').choices([...categories]))
  .option(
    '--name <name>',
    'display name for a new (or reclaimed, unverified) account; default: the part of the address before @',
  )
  .action(async (email: string, opts: { role: 'admin' | 'tutor'; category?: string[]; name?: string }) => {
    await withServices(async (s) => {
      const result = await addStaff(
        { ...s.deps, auth: s.auth },
        { email, role: opts.role, categories: opts.category as never, name: opts.name },
      );
      console.log(addedMessage[result.outcome](result.email, opts.role));
    });
  });

staff.command('list').action(async () => {
  await withServices(async (s) => {
    const members = await listStaffMembers(s.deps);
    if (members.length === 0) console.log('No staff yet.');
    for (const m of members)
      console.log([m.role.padEnd(5), m.email, m.name, m.categories.join(', ')].filter(Boolean).join('\t'));
  });
});

staff
  .command('remove')
  .argument('<email>')
  .description('make a staff member a student again')
  .action(async (email: string) => {
    await withServices(async (s) => {
      const outcome = await removeStaff(s.deps, email);
      const address = email.trim().toLowerCase();
      console.log(outcome === 'removed' ? `${address} is now a student.` : `${address} is not staff: nothing changed.`);
    });
  });

/**
 * `npm run cli -- import firebase`: the old site's data and accounts (docs/moving-in-from-firebase.md).
 * The files are read and checked before anything is written; the import is one transaction on SQL, a
 * transaction per batch on Firestore (firebase-import.ts, decision 0023).
 */
program
  .command('import')
  .description('bring in data from elsewhere')
  .command('firebase')
  .description('the old Firebase site: its Firestore collections and its Authentication users')
  .requiredOption('--project <id>', 'the Firebase project id')
  .option('--auth-export <file>', 'users from `firebase auth:export users.json --format=json`')
  .option('--hash-config <file>', "the project's password hash parameters, as the console shows them, or JSON")
  .option('--dry-run', 'print the report and write nothing')
  .option(
    '--check-password <email>',
    'an account of the export whose password you know; the password is read from standard input and must verify the hash parameters before anything is written',
  )
  .option('--no-password-check', 'import password hashes without checking the hash parameters (not recommended)')
  .action(async (opts: ImportOptions) => {
    try {
      const env = loadEnv();
      // Before anything is read: the old site's data is never the target.
      requireSeparateTarget({
        source: { projectId: opts.project, emulatorHost: env.firestoreEmulatorHost },
        target: env.firestoreProjectId
          ? {
              projectId: env.firestoreProjectId,
              databaseId: env.firestoreDatabaseId ?? '(default)',
              emulatorHost: env.firestoreEmulatorHost,
            }
          : undefined,
      });
      if (opts.hashConfig && !opts.authExport) throw new ImportStoppedError('--hash-config goes with --auth-export.');
      if (opts.checkPassword !== undefined && !opts.hashConfig)
        throw new ImportStoppedError('--check-password goes with --auth-export and --hash-config.');
      const users = opts.authExport ? parseAuthExport(await readText(opts.authExport), opts.authExport) : [];
      const hashConfig = opts.hashConfig
        ? parseHashConfig(await readText(opts.hashConfig), opts.hashConfig)
        : undefined;
      if (hashConfig) await checkHashConfig(opts, users, hashConfig);
      // Loaded here, not at the top: firebase-admin and gRPC would slow every other command down.
      const { readFirestore } = await import('./import/firestore-source.ts');
      const firestore = await readFirestore({ projectId: opts.project, emulatorHost: env.firestoreEmulatorHost }).catch(
        (error: unknown) => {
          throw new ImportStoppedError(
            `Could not read Firestore project ${opts.project}: ${(error as Error).message}\n` +
              (env.firestoreEmulatorHost
                ? `Is the emulator running at ${env.firestoreEmulatorHost}?`
                : 'Sign in with `gcloud auth application-default login`, or set FIRESTORE_EMULATOR_HOST for an emulator.'),
          );
        },
      );
      const services = await startServices(env);
      if (!services) return;
      try {
        const report = await importFirebase(
          services.deps.storage,
          { firestore, users, hashConfig },
          { dryRun: opts.dryRun === true, now: new Date() },
        );
        // Sessions the import ended: the servers drop them from memory (the bus reaches them before close ends).
        if (!report.dryRun && report.handedOver.length > 0)
          services.deps.events.publish(accessChanged(report.handedOver));
        console.log(formatReport(report, opts.project));
      } finally {
        await services.close();
      }
    } catch (error) {
      console.error(error instanceof ImportStoppedError ? `Error: ${error.message}` : error);
      process.exitCode = 1;
    }
  });

interface ImportOptions {
  project: string;
  authExport?: string;
  hashConfig?: string;
  dryRun?: boolean;
  checkPassword?: string;
  /** False with `--no-password-check`. */
  passwordCheck: boolean;
}

/**
 * Password hashes come in only with hash parameters proven on one known password (password-check.ts), or,
 * said explicitly, unproven with a warning.
 */
async function checkHashConfig(opts: ImportOptions, users: ExportedUser[], hashConfig: FirebaseHashConfig) {
  const files = { authExport: opts.authExport!, hashConfig: opts.hashConfig! };
  if (opts.checkPassword !== undefined) {
    if (!opts.passwordCheck) throw new ImportStoppedError('--check-password and --no-password-check: give one.');
    const email = opts.checkPassword.trim().toLowerCase();
    const password = await readSecretLine(`Password of ${email} on the old site (not shown): `);
    await requireHashConfigVerifies({ users, hashConfig, email, password, files });
    console.log(`The hash parameters verify the password of ${email}.`);
    return;
  }
  if (!users.some((user) => user.passwordHash)) return;
  if (!opts.passwordCheck) {
    console.error(
      'Warning: the hash parameters were not checked (--no-password-check). If one is wrong, every imported ' +
        'password is refused at login; the log names each account whose old password fails.',
    );
    return;
  }
  throw new ImportStoppedError(
    `${files.authExport} holds password hashes: name one account whose password you know with --check-password ` +
      '<email> (its password is read from standard input), so that hash parameters that would refuse every old ' +
      'password are caught before anything is written; or import without the check with --no-password-check.',
  );
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new ImportStoppedError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
}

await program.parseAsync();

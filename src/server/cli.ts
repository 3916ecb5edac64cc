import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { categories } from '../common/roles.ts';
import { loadEnv } from './env.ts';
import { isAppError } from './http/errors.ts';
import { ImportStoppedError, parseAuthExport, parseHashConfig } from './import/firebase-auth-export.ts';
import { accessChanged } from './events/events.ts';
import { formatReport, importFirebase } from './import/firebase-import.ts';
import { addStaff, listStaffMembers, removeStaff } from './modules/staff/staff.usecases.ts';
import { createServices } from './server.ts';

/** `npm run cli -- staff add|list|remove`: staff accounts are made here, never through the API. */
const program = new Command('cli').description('TutorBook administration').showHelpAfterError();
const staff = program.command('staff').description('admins and tutors');

async function withServices(fn: (s: Awaited<ReturnType<typeof createServices>>) => Promise<void>) {
  const env = loadEnv();
  const services = await createServices({ ...env, logLevel: env.logLevel === 'info' ? 'warn' : env.logLevel });
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
 * `npm run cli -- import firebase`: the old site's data and accounts (README "Moving in from Firebase").
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
  .action(async (opts: { project: string; authExport?: string; hashConfig?: string; dryRun?: boolean }) => {
    try {
      const env = loadEnv();
      if (opts.hashConfig && !opts.authExport) throw new ImportStoppedError('--hash-config goes with --auth-export.');
      const users = opts.authExport ? parseAuthExport(await readText(opts.authExport), opts.authExport) : [];
      const hashConfig = opts.hashConfig
        ? parseHashConfig(await readText(opts.hashConfig), opts.hashConfig)
        : undefined;
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
      const services = await createServices({ ...env, logLevel: env.logLevel === 'info' ? 'warn' : env.logLevel });
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

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new ImportStoppedError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
}

await program.parseAsync();

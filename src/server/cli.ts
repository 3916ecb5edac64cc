import { Command, Option } from 'commander';
import { categories } from '../common/roles.ts';
import { loadEnv } from './env.ts';
import { isAppError } from './http/errors.ts';
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

await program.parseAsync();

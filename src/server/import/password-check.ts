import { FirebaseScrypt } from 'firebase-scrypt';
import type { FirebaseHashConfig } from '../auth/firebase-password.ts';
import { ImportStoppedError, type ExportedUser } from './firebase-auth-export.ts';

/**
 * The check of the hash parameters against one password the owner knows (`--check-password <email>`). A
 * parameter off by one character is accepted by every other check, and then every old password fails at
 * login with "Incorrect email or password" (issue 33); one known password proves the parameters before
 * anything is written.
 */
export async function requireHashConfigVerifies(args: {
  users: readonly ExportedUser[];
  hashConfig: FirebaseHashConfig;
  email: string;
  password: string;
  files: { authExport: string; hashConfig: string };
}): Promise<void> {
  const { users, hashConfig, password, files } = args;
  const email = args.email.trim().toLowerCase();
  const user = users.find((u) => u.email?.trim().toLowerCase() === email);
  if (!user) throw new ImportStoppedError(`--check-password: ${email} is not an account of ${files.authExport}.`);
  if (!user.passwordHash || !user.salt)
    throw new ImportStoppedError(
      `--check-password: ${email} has no password in ${files.authExport} (an account that signs in with Google ` +
        'only, say): name an account that logs in with a password.',
    );
  if (!password) throw new ImportStoppedError('--check-password: no password was given on standard input.');
  let verified = false;
  try {
    verified = await new FirebaseScrypt(hashConfig).verify(password, user.salt, user.passwordHash);
  } catch {
    // Parameters scrypt refuses outright (a memory cost it cannot allocate): they verify nothing.
  }
  if (!verified)
    throw new ImportStoppedError(
      `The hash parameters in ${files.hashConfig} do not verify the password given for ${email}: with them every ` +
        'imported password would be refused at login. Nothing was written. Copy base64_signer_key, ' +
        'base64_salt_separator, rounds and mem_cost again from the Firebase console (Authentication → Users → ⋮ → ' +
        'Password hash parameters) of the project the export came from, and check the password.',
    );
}

/**
 * One line of standard input: typed at a prompt that does not echo it when stdin is a terminal, else the first
 * line of what is piped in (`printf '%s\n' "$PASSWORD" | npm run cli -- …`). Never an argument: the command
 * line is visible to every user of the machine (`ps`) and kept in the shell's history.
 */
export async function readSecretLine(
  prompt: string,
  io: { stdin: NodeJS.ReadStream; stderr: NodeJS.WriteStream } = { stdin: process.stdin, stderr: process.stderr },
): Promise<string> {
  const { stdin, stderr } = io;
  if (stdin.isTTY) return readTyped(prompt, stdin, stderr);
  let text = '';
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0]!.replace(/\r$/, '');
}

/** Raw mode: each key comes as it is typed and nothing is echoed; Enter ends, Ctrl-C and Ctrl-D stop. */
function readTyped(prompt: string, stdin: NodeJS.ReadStream, stderr: NodeJS.WriteStream): Promise<string> {
  // Echo off before the prompt shows: what is typed (or pasted) the moment it appears is never echoed.
  stdin.setRawMode(true);
  stderr.write(prompt);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003' || char === '\u0004') return finish(new ImportStoppedError('No password given.'));
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The Playwright arguments of a run of a subset of the journeys: `args` as given when they name spec files,
 * else the lines of `listFile` (spec files and Playwright options; `#` starts a comment) before them.
 */
export function journeyArgs(listFile: string, args: string[]): string[] {
  if (args.some((arg) => !arg.startsWith('-'))) return args;
  const listed = readFileSync(listFile, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  return [...listed, ...args];
}

/**
 * Runs Playwright's own CLI on this Node (Node 24, not whichever `node` the PATH finds first) with `env` added,
 * and resolves with its exit code. Ctrl-C reaches Playwright through the terminal already; a SIGTERM sent to the
 * calling script alone is passed on, and the script lives on to clean up after Playwright has ended.
 */
export async function runPlaywright(args: string[], env: Record<string, string>): Promise<number> {
  const playwright = spawn(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => playwright.kill('SIGTERM'));
  return new Promise<number>((resolve) =>
    playwright.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
  );
}

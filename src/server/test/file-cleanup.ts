/** What this test file started and must stop when it ends (test/per-file.ts runs them), the last first. */
const cleanups: (() => Promise<void>)[] = [];

export function afterThisFile(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

export async function runFileCleanups(): Promise<void> {
  for (let cleanup = cleanups.pop(); cleanup; cleanup = cleanups.pop()) await cleanup();
}

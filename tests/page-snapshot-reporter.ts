import { readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Enough of a page to see where it was (a dashboard's cards run to tens of thousands of characters). */
const limit = 6_000;

/**
 * On CI only the run's printed log is kept, and the list reporter names a failed journey's error context without
 * showing it. This prints what the page showed when the journey failed (the ARIA snapshot Playwright writes into
 * error-context.md), so a failure that does not happen here can still be read from CI's log.
 */
export default class PageSnapshotReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'passed' || result.status === 'skipped') return;
    const context = result.attachments.find((attachment) => attachment.name === 'error-context' && attachment.path);
    if (!context?.path) return;
    let text: string;
    try {
      text = readFileSync(context.path, 'utf8');
    } catch {
      return;
    }
    const start = text.indexOf('```yaml');
    if (start < 0) return;
    const end = text.indexOf('# Test source', start);
    const snapshot = text.slice(start, end < 0 ? undefined : end).trim();
    const shown =
      snapshot.length > limit
        ? `${snapshot.slice(0, limit)}\n… (${snapshot.length - limit} more characters)`
        : snapshot;
    process.stdout.write(`\n--- What the page showed: ${test.title} (attempt ${result.retry + 1})\n${shown}\n---\n`);
  }
}

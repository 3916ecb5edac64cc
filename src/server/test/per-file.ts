import { afterAll } from 'vitest';
import { runFileCleanups } from './file-cleanup.ts';

/**
 * Set up before each file of the server's tests (vitest.config.ts `setupFiles`): what the file started for
 * itself and handed to `afterThisFile` is stopped once it ends. A worker runs many files in one process
 * (`isolate: false`), where a module's top-level hook would be registered for the first file alone.
 */
afterAll(runFileCleanups);

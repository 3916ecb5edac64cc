import { rmSync } from 'node:fs';
import { e2eDatabaseUrl, e2eDataDir, e2ePort } from '../playwright.config.ts';

// A fresh data folder per run: e-mails go to its mail folder, where the fixtures read them.
rmSync(e2eDataDir, { recursive: true, force: true });
Object.assign(process.env, {
  DATA_DIR: e2eDataDir,
  PORT: String(e2ePort),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${e2ePort}`,
  LOG_LEVEL: 'warn',
  // Below the 24-hour late-cancellation window, so that tests/bookings.spec.ts can book a session inside it.
  BOOKING_MIN_LEAD_HOURS: '20',
  // The storage engine: SQLite in the data folder, unless the run asks for another (scripts/e2e-firestore.ts
  // sets firestore://… with FIRESTORE_EMULATOR_HOST); the fixtures' CLI calls use the same.
  ...(e2eDatabaseUrl && { DATABASE_URL: e2eDatabaseUrl }),
});
await import('../src/server/main.ts');

import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  e2eClientDir,
  e2eDatabaseUrl,
  e2eDataDir,
  e2eDir,
  e2eHosting,
  e2ePort,
  e2eWhatsApp,
} from '../playwright.config.ts';
import { readFirebaseJson, startHostingStandin } from '../scripts/hosting-standin.ts';
import { sandboxMerchant, startPayFastStandIn } from '../scripts/payfast-standin.ts';
import { createWhatsAppStandin } from '../scripts/whatsapp-standin.ts';
import { findClosedPort } from '../src/server/test/free-port.ts';

// A fresh folder per run: e-mails go to its data folder's mail folder, where the fixtures read them. The server
// serves its own copy of the build (the server reads dist/client, and the SSR build beside it, from its working
// folder), so that a journey deploying a new version (tests/app-update.spec.ts) changes this run's app alone.
rmSync(e2eDir, { recursive: true, force: true });
mkdirSync(e2eDataDir, { recursive: true });
const builtDist = path.dirname(e2eClientDir);
for (const part of ['client', 'pages', 'ssr'])
  cpSync(path.join('dist', part), path.join(builtDist, part), { recursive: true });
const firebaseJson = path.resolve('firebase.json');
// Behind the Firebase Hosting stand-in (scripts/e2e-hosting.ts): the stand-in takes the run's port and serves this
// run's copy of the build as Hosting would, the server listens on a port of its own behind it.
const serverPort = e2eHosting ? await findClosedPort() : e2ePort;
// PayFast on this machine (scripts/payfast-standin.ts): students may pay online, as on a site set up for it.
const payFast = await startPayFastStandIn(sandboxMerchant);
// WhatsApp Business on this machine (scripts/whatsapp-standin.ts): the owner's account configured, as on a site set up
// for it; the stand-in reports each message's statuses to the app's webhook, signed, as Meta does.
const whatsApp = await createWhatsAppStandin({
  token: e2eWhatsApp.token,
  appSecret: e2eWhatsApp.appSecret,
  port: e2eWhatsApp.port,
  webhookUrl: `http://127.0.0.1:${e2ePort}/api/whatsapp/webhook`,
});
process.chdir(e2eDir);
Object.assign(process.env, {
  DATA_DIR: e2eDataDir,
  PORT: String(serverPort),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${e2ePort}`,
  LOG_LEVEL: 'warn',
  // Below the 24-hour late-cancellation window, so that tests/bookings.spec.ts can book a session inside it.
  BOOKING_MIN_LEAD_HOURS: '20',
  // The storage engine: SQLite in the data folder, unless the run asks for another (scripts/e2e-firestore.ts
  // sets firestore://… with FIRESTORE_EMULATOR_HOST); the fixtures' CLI calls use the same.
  ...(e2eDatabaseUrl && { DATABASE_URL: e2eDatabaseUrl }),
  PAYFAST_MERCHANT_ID: sandboxMerchant.merchantId,
  PAYFAST_MERCHANT_KEY: sandboxMerchant.merchantKey,
  PAYFAST_PASSPHRASE: sandboxMerchant.passphrase,
  PAYFAST_URL: payFast.url,
  WHATSAPP_API_URL: whatsApp.url,
  WHATSAPP_TOKEN: e2eWhatsApp.token,
  WHATSAPP_APP_SECRET: e2eWhatsApp.appSecret,
  WHATSAPP_PHONE_NUMBER_ID: '100000000000001',
  WHATSAPP_VERIFY_TOKEN: 'e2e-whatsapp-verify',
});
await import('../src/server/main.ts');
if (e2eHosting) {
  await startHostingStandin({
    config: readFirebaseJson(firebaseJson).hosting,
    publicDir: e2eClientDir,
    upstream: `http://127.0.0.1:${serverPort}`,
    port: e2ePort,
    requestLimitMs: e2eHosting.requestLimitMs,
  });
}

import { existsSync } from 'node:fs';

/**
 * `npm start`, `npm run dev` and `npm run cli` read `.env` from the checkout when there is one (a copy of
 * `.env.example`), so the server and the command line find the same data. The environment wins over the file.
 * Tests never load it: they give each process its environment whole.
 */
if (existsSync('.env')) process.loadEnvFile('.env');

// `npm run cli -- …`: the command line, with the settings of `.env` as the server has them.
import './dotenv.ts';

await import('../src/server/cli.ts');

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import './dotenv.ts';

// `npm start` on a fresh clone: build the client once if there is no build, then serve.
if (!existsSync('dist/client/index.html')) {
  console.log('No client build yet: building it once (npm run build)…');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import('../src/server/main.ts');

import net from 'node:net';

/**
 * A port nothing listens on right now (the system's pick, then released). Its own file, without vitest, so
 * that scripts outside a test run (the Firestore journeys' emulator, scripts/e2e-firestore.ts) can use it.
 */
export async function findClosedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

import net from 'node:net';
import { expect, test } from 'vitest';
import { startOwnFirestoreEmulator } from './firestore-emulator.ts';
import { findClosedPort } from './free-port.ts';
import { deadline } from './deadline.ts';

// CI once failed when another process bound the port chosen for an emulator before the emulator did.
test(
  'an emulator whose port is taken before it binds starts again on another port',
  async () => {
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as net.AddressInfo).port;
    const picked: number[] = [];
    const pickPort = async () => {
      const port = picked.length === 0 ? taken : await findClosedPort();
      picked.push(port);
      return port;
    };
    const emulator = await startOwnFirestoreEmulator(60_000, pickPort);
    try {
      expect(picked).toHaveLength(2);
      expect(emulator.host).toBe(`127.0.0.1:${picked[1]}`);
      expect((await fetch(`http://${emulator.host}/`)).ok).toBe(true);
    } finally {
      await emulator.stop();
      squatter.close();
    }
  },
  deadline(90_000),
);

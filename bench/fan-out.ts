import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http, { type Server, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadEnv } from '../src/server/env.ts';
import { createHttpServer } from '../src/server/http/node-server.ts';
import { newVapidKeysEnv } from '../src/server/push/vapid.ts';
import { createServices } from '../src/server/server.ts';
import type { Measurement } from './results.ts';

/**
 * Live-event fan-out: 500 open `GET /api/events` streams on one server, one notice published, and the time
 * until the last stream has it. The reference, measured in the same run, is a bare `node:http` server holding
 * 500 Server-Sent Event responses and writing the same message to each. The clients are raw sockets on this
 * thread for both, so their cost falls on both alike; compare the ratio, not the milliseconds.
 * `node bench/fan-out.ts` runs this part alone (and records nothing); `npm run bench` runs it after the
 * throughput benchmarks, and bench/run.ts records the figures it returns.
 */

const streamCount = 500;
const roundCount = 7;

interface Target {
  name: string;
  port: number;
  publish(round: number): void;
}

export async function runFanOutBench(): Promise<{ measurement: Measurement; conditions: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tutorbook-bench-fan-out-'));
  const env = loadEnv({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    AUTH_SECRET: randomBytes(32).toString('hex'),
    // Production does not start without the server's VAPID keys (web push).
    ...newVapidKeysEnv(),
    // Production does not start without the bank details students pay into.
    PAYMENT_EFT_DETAILS: 'Bank: Bench Bank; Account number: 0',
    // Every stream comes from this machine's one address.
    EVENT_STREAMS_PER_ADDRESS: '1000',
  });
  const services = await createServices(env, { clientDir: dataDir });
  const app = createHttpServer(services.app.fetch, { production: env.production, prepared: services.prepared });

  const bareResponses = new Set<ServerResponse>();
  const bare = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write('retry: 3000\n\n');
    bareResponses.add(res);
    req.on('close', () => bareResponses.delete(res));
  });
  await Promise.all([listen(app), listen(bare)]);

  const targets: Target[] = [
    {
      name: 'bare node:http SSE',
      port: (bare.address() as AddressInfo).port,
      publish(round) {
        const message = `event: change\nid: bare-${round}\ndata: ${JSON.stringify({ table: 'bench', ids: [`round-${round}`] })}\n\n`;
        for (const res of bareResponses) res.write(message);
      },
    },
    {
      name: 'GET /api/events',
      port: (app.address() as AddressInfo).port,
      publish(round) {
        services.bus.publish({ table: 'bench', ids: [`round-${round}`], audience: 'everyone' });
      },
    },
  ];

  try {
    const timings = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    const clients = new Map<string, StreamClient[]>();
    for (const target of targets) clients.set(target.name, await openStreams(target.port, streamCount));
    // Round 0 warms up; rounds alternate between the targets so a burst of load elsewhere falls on both.
    for (let round = 0; round <= roundCount; round++) {
      for (const target of targets) {
        const ms = await fanOut(target, clients.get(target.name)!, round);
        if (round > 0) timings.get(target.name)!.push(ms);
      }
    }
    for (const list of clients.values()) for (const client of list) client.socket.destroy();

    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const reference = median(timings.get(targets[0]!.name)!);
    console.log(
      `\nFan-out: ${streamCount} open streams, one notice, time until the last stream has it (median of ${roundCount} rounds)\n`,
    );
    console.log(`${'target'.padEnd(20)}  ${'ms'.padStart(7)}  ${'÷ bare'.padStart(7)}`);
    for (const target of targets) {
      const ms = median(timings.get(target.name)!);
      console.log(
        `${target.name.padEnd(20)}  ${ms.toFixed(2).padStart(7)}  ${(ms / reference).toFixed(2).padStart(7)}`,
      );
    }
    const ms = median(timings.get(targets[1]!.name)!);
    return {
      measurement: {
        goal: 'Fan-out',
        measured: `\`GET /api/events\`, time until the last of ${streamCount} streams has one notice`,
        figure: { value: ms, unit: 'ms' },
        reference: { what: 'a bare `node:http` SSE server', figure: { value: reference, unit: 'ms' } },
        ratio: ms / reference,
      },
      conditions: `Fan-out: the median of ${roundCount} rounds.`,
    };
  } finally {
    await services.streamHub.closeAll();
    await Promise.all([close(app), close(bare)]);
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface StreamClient {
  socket: net.Socket;
  received: string;
  onData?: () => void;
}

/** Raw HTTP/1.1 connections holding an event stream each, resolved once every one has its `retry:` hint. */
async function openStreams(port: number, count: number): Promise<StreamClient[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const socket = net.connect(port, '127.0.0.1');
      const client: StreamClient = { socket, received: '' };
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        client.received += chunk;
        client.onData?.();
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        client.onData = () => client.received.includes('retry:') && resolve();
        socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
      });
      return client;
    }),
  );
}

/** Publishes one notice and resolves with the milliseconds until every client has it. */
function fanOut(target: Target, clients: StreamClient[], round: number): Promise<number> {
  const marker = `"round-${round}"`;
  let waiting = clients.length;
  return new Promise((resolve) => {
    const started = performance.now();
    for (const client of clients) {
      client.received = '';
      client.onData = () => {
        if (!client.received.includes(marker)) return;
        client.onData = undefined;
        if (--waiting === 0) resolve(performance.now() - started);
      };
    }
    target.publish(round);
  });
}

function listen(server: Server) {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

function close(server: Server) {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

if (import.meta.main) await runFanOutBench();

import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { noticeSettingsSchema, questionTopic } from '../src/common/notices.ts';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { insertVerifiedUsers } from '../src/server/auth/verified-users.ts';
import { createPushSender } from '../src/server/push/push-sender.ts';
import { resolveVapidKeys } from '../src/server/push/vapid.ts';
import { startAppServer } from './app-server.ts';
import { recordResults, type Measurement } from './results.ts';
import { signedInUsers } from './signed-in.ts';

/**
 * Push fan-out (issue 38 §4), a report (always exits 0): an answer to a question that 500 users follow, each with a
 * device subscribed at the local push service (scripts/push-standin.ts in a process of its own, which checks VAPID
 * and decrypts every message) and push chosen for answers. Measured per round:
 * A. the answer's own request (`POST /api/questions/:id/answers`) on that question, against the same request on a
 *    question nobody else follows (the reference: same body, same server): the fan-out must not slow the change;
 * B. from the answer's request to the 500th push taken by the push service (goal: under 5 s), and the longest the
 *    server's event loop was held meanwhile (what any other request would have waited);
 * C. the reference for B: the same 500 pushes (same payload, keys and push service) sent straight by the push
 *    sender, as many at once as the push channel sends, without notices, deliveries or their claims.
 * On SQLite, production settings, over HTTP on loopback; interleaved, one of each a round, so that a busy moment
 * of the machine falls on both alike. Each round waits for the last one's pushes before it starts.
 */

const followerCount = 500;
const rounds = 7;
const goalMs = 5_000;
const loadAtStart = os.loadavg()[0]!.toFixed(1);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The push service stand-in in a process of its own: its decrypting must not fall on the server's event loop. */
async function startStandin() {
  const child = spawn(process.execPath, ['scripts/push-standin.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  while (!/on (http\S+)/.test(out)) await once(child.stdout, 'data');
  const url = /on (http\S+)/.exec(out)![1]!;
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(
      `${url}${path}`,
      body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) },
    );
    return response.json() as Promise<Record<string, unknown>>;
  };
  return {
    subscribe: async (applicationServerKey: string) =>
      (await call('/stand-in/subscriptions', { applicationServerKey })) as {
        id: string;
        endpoint: string;
        keys: { p256dh: string; auth: string };
      },
    count: async () => (await call('/stand-in/count')).messages as number,
    close: () => child.kill(),
  };
}

const standin = await startStandin();
const app = await startAppServer('notices', { idleMail: true });
try {
  const { services } = app;
  const [asker, ...answerers] = await signedInUsers(services, 1 + rounds + 1, 'bench-notices');
  const post = async (cookie: string, path: string, body: unknown) => {
    const started = performance.now();
    const response = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { cookie, origin: services.env.publicUrl, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return performance.now() - started;
  };
  const ask = async (title: string) => {
    const id = crypto.randomUUID();
    await post(asker!.cookie, '/api/questions', { id, title, text: 'How do I read a p-value of 0.03?' });
    return id;
  };
  const followed = await ask('What does a p-value tell me?');
  const alone = await ask('What does a confidence interval tell me?');

  // The followers: accounts, a device each at the push service, push chosen for answers, and the follow.
  const followers = Array.from({ length: followerCount }, (_, i) => ({
    id: crypto.randomUUID(),
    name: `Follower ${i}`,
    email: `bench-follower-${i}@example.com`,
  }));
  await insertVerifiedUsers(services.db, followers, 'not-used');
  const settings = await fetch(`${app.url}/api/me/notice-preferences`, { headers: { cookie: asker!.cookie } });
  const { pushKey } = noticeSettingsSchema.parse(await settings.json());
  const { notices } = services.deps.repos;
  const at = new Date();
  const devices: { endpoint: string; keys: { p256dh: string; auth: string } }[] = [];
  for (const follower of followers) {
    const device = await standin.subscribe(pushKey);
    devices.push(device);
    await notices.savePushSubscription({
      id: device.id,
      userId: follower.id,
      endpoint: device.endpoint,
      p256dh: device.keys.p256dh,
      auth: device.keys.auth,
      createdAt: at.toISOString(),
    });
    await notices.savePreferences(
      follower.id,
      { choices: { 'question-answered': { push: { on: true, at: at.toISOString() } } }, whatsappNumber: null },
      at,
    );
    await notices.follow(questionTopic(followed), follower.id, at);
  }

  const pushed = () => standin.count();
  async function untilPushed(count: number) {
    const deadline = performance.now() + 60_000;
    for (let taken = await pushed(); taken < count; taken = await pushed()) {
      if (performance.now() > deadline) throw new Error(`${taken} of ${count} pushes arrived in 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return performance.now();
  }

  const sender = createPushSender({ vapid: resolveVapidKeys(services.env) });
  const atOnce = 8;
  /** C: the same pushes without the outbox, `atOnce` at a time as the push channel sends them. */
  async function bareSends(payload: unknown) {
    const started = performance.now();
    for (let i = 0; i < devices.length; i += atOnce)
      await Promise.all(
        devices.slice(i, i + atOnce).map((device) => sender.send(device, payload, { urgency: 'high' })),
      );
    return performance.now() - started;
  }
  const samplePayload = {
    id: crypto.randomUUID(),
    kind: 'question-answered',
    title: 'New answer: What does a p-value tell me?',
    body: 'Bench Notices 1 answered: the chance of data this extreme if the null hypothesis held.',
    path: `/qa/${followed}`,
    badge: 1,
  };

  const times = {
    reference: [] as number[],
    change: [] as number[],
    delivered: [] as number[],
    held: [] as number[],
    bare: [] as number[],
  };
  const loop = monitorEventLoopDelay({ resolution: 5 });
  for (let round = -1; round < rounds; round++) {
    const answerer = answerers[round + 1]!;
    const text = `Round ${round}: the chance of data this extreme if the null hypothesis held.`;
    const reference = await post(answerer.cookie, `/api/questions/${alone}/answers`, { id: crypto.randomUUID(), text });
    const before = await pushed();
    loop.reset();
    loop.enable();
    const started = performance.now();
    const change = await post(answerer.cookie, `/api/questions/${followed}/answers`, {
      id: crypto.randomUUID(),
      text,
    });
    const delivered = (await untilPushed(before + followerCount)) - started;
    loop.disable();
    if (round < 0) continue; // warm-up
    times.held.push(loop.max / 1e6);
    times.bare.push(await bareSends(samplePayload));
    times.reference.push(reference);
    times.change.push(change);
    times.delivered.push(delivered);
  }
  if ((await pushed()) !== followerCount * (2 * rounds + 1)) throw new Error(`${pushed()} pushes: some went twice`);

  const [reference, change, delivered] = [median(times.reference), median(times.change), median(times.delivered)];
  const bare = median(times.bare);
  const slowest = Math.max(...times.delivered);
  const held = Math.max(...times.held);
  const met = slowest < goalMs;
  console.log(`\nPush fan-out to ${followerCount} followers, ${rounds} rounds, load average ${loadAtStart} at start`);
  console.log(
    `A. the answer's request: median ${change.toFixed(1)} ms; with nobody following ${reference.toFixed(1)} ms`,
  );
  console.log(`B. the 500th push taken: median ${delivered.toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms`);
  console.log(
    `C. the same 500 pushes sent straight: median ${bare.toFixed(0)} ms; B ÷ C ${(delivered / bare).toFixed(2)}`,
  );
  console.log(
    `   the event loop held at most ${held.toFixed(0)} ms (per round: ${times.held.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(`goal: every fan-out under ${goalMs} ms: ${met ? 'PASS' : 'FAIL'}`);

  const ms = (value: number, digits = 0) => ({ value: Number(value.toFixed(digits)), unit: 'ms' });
  const measurements: Measurement[] = [
    {
      goal: 'Push to 500 followers < 5 s',
      measured: `from an answer's \`POST\` to the ${followerCount}th push taken by the local push service, median`,
      figure: ms(delivered),
      reference: {
        what: `the same ${followerCount} pushes sent straight by the push sender, ${atOnce} at a time, median`,
        figure: ms(bare),
      },
      ratio: delivered / bare,
      also: `slowest ${slowest.toFixed(0)} ms; the event loop held at most ${held.toFixed(0)} ms meanwhile`,
      target: `every round < ${goalMs} ms`,
      met,
    },
    {
      measured: `the answer's \`POST\` on a question ${followerCount} users follow with push, median`,
      figure: ms(change, 1),
      reference: { what: 'the same request on a question nobody else follows, median', figure: ms(reference, 1) },
      ratio: change / reference,
    },
  ];
  await recordResults(import.meta.filename, measurements, {
    conditions:
      `${rounds} interleaved rounds (after 1 to warm up), over HTTP on loopback; SQLite; each push encrypted and ` +
      `signed (VAPID), the push service decrypting each; load average ${loadAtStart} at the start.`,
  });
} finally {
  await app.stop();
  standin.close();
}

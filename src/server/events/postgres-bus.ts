import pg from 'pg';
import type { Logger } from 'pino';
import { newEventId, type BusMessage, type ChangeNotice, type EventBus } from './events.ts';

const channel = 'tutorbook_events';
/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; the margin covers JSON we do not count. */
const maxPayloadBytes = 7_900;
const firstRetryMs = 250;
const maxRetryMs = 10_000;

/**
 * The bus for several server processes on one database: a publish is a `pg_notify`, and every process (the
 * publisher too) hears it through its own LISTEN, so there is one path for every notice. LISTEN holds its own
 * connection, outside the pool, for as long as the process runs. When that connection drops, notices sent
 * until it is back are lost for good, so subscribers are told to resync once it listens again.
 */
export async function createPostgresBus(options: { connectionString: string; logger: Logger }): Promise<EventBus> {
  const { connectionString, logger } = options;
  const listeners = new Set<(message: BusMessage) => void>();
  // One connection keeps the notices of one process in the order they were published.
  const publisher = new pg.Pool({ connectionString, max: 1 });
  publisher.on('error', (error) => logger.warn({ err: error }, 'event bus: publishing connection failed'));
  const prefix = crypto.randomUUID().slice(0, 8);
  let closed = false;
  /** Publishes not yet sent. */
  const sent = new Set<Promise<void>>();
  let listener: pg.Client | undefined;
  /** Whether LISTEN holds: notices published meanwhile elsewhere are lost (`hearsAll`). */
  let hearing = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const deliver = (message: BusMessage) => {
    for (const listen of listeners) listen(message);
  };

  async function listen(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString, keepAlive: true });
    let listening = false;
    const onLost = (error?: Error) => {
      // Before LISTEN succeeded, the failure is the rejected connect below.
      if (!listening) return;
      listening = false;
      hearing = false;
      client.removeAllListeners('notification');
      if (closed) return;
      logger.warn({ err: error }, 'event bus: the LISTEN connection was lost; reconnecting');
      reconnect(firstRetryMs);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel !== channel || !message.payload) return;
      const notice = parseNotice(message.payload);
      if (!notice)
        return logger.warn({ payload: message.payload.slice(0, 200) }, 'event bus: ignored a malformed notice');
      deliver({ type: 'notice', event: { ...notice, id: newEventId(prefix) } });
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    listening = true;
    hearing = true;
    return client;
  }

  function reconnect(delayMs: number) {
    retryTimer = setTimeout(async () => {
      retryTimer = undefined;
      try {
        const client = await listen();
        if (closed) return void (await client.end().catch(() => {}));
        listener = client;
        logger.info('event bus: listening again');
        deliver({ type: 'resync' });
      } catch (error) {
        if (closed) return;
        const next = Math.min(delayMs * 2, maxRetryMs);
        logger.warn({ err: error, retryInMs: next }, 'event bus: reconnecting failed');
        reconnect(next);
      }
    }, delayMs);
  }

  try {
    listener = await listen();
  } catch (error) {
    await publisher.end();
    throw error;
  }

  return {
    publish(notice) {
      if (closed) return;
      for (const payload of payloads(notice)) {
        const sending = publisher
          .query('SELECT pg_notify($1, $2)', [channel, payload])
          .then(() => {})
          .catch((error: unknown) => {
            logger.error({ err: error, table: notice.table }, 'event bus: a notice could not be published');
          })
          .finally(() => sent.delete(sending));
        sent.add(sending);
      }
    },
    subscribe(listen) {
      listeners.add(listen);
      return () => listeners.delete(listen);
    },
    hearsAll: () => hearing,
    async close() {
      // A process that publishes and then stops (the CLI: `staff remove`) must not end before its notices left.
      await Promise.all(sent);
      closed = true;
      clearTimeout(retryTimer);
      listeners.clear();
      await Promise.all([listener?.end().catch(() => {}), publisher.end()]);
    },
  };
}

/** The notice as one or more JSON payloads under the size limit, the ids spread over them, each with the version. */
function payloads(notice: ChangeNotice): string[] {
  // JSON.stringify leaves out a version that is undefined.
  const withIds = (ids: readonly string[]) =>
    JSON.stringify({ table: notice.table, ids, audience: notice.audience, version: notice.version });
  const whole = withIds(notice.ids);
  if (Buffer.byteLength(whole) <= maxPayloadBytes) return [whole];
  const base = Buffer.byteLength(withIds([]));
  const result: string[] = [];
  let ids: string[] = [];
  let size = base;
  for (const id of notice.ids) {
    // The id as JSON, plus the comma before it.
    const idBytes = Buffer.byteLength(JSON.stringify(id)) + 1;
    if (ids.length > 0 && size + idBytes > maxPayloadBytes) {
      result.push(withIds(ids));
      ids = [];
      size = base;
    }
    ids.push(id);
    size += idBytes;
  }
  if (ids.length > 0) result.push(withIds(ids));
  return result;
}

function parseNotice(payload: string): ChangeNotice | undefined {
  try {
    const value = JSON.parse(payload) as Partial<ChangeNotice>;
    const ok =
      typeof value.table === 'string' &&
      Array.isArray(value.ids) &&
      value.ids.every((id) => typeof id === 'string') &&
      (value.version === undefined || Number.isSafeInteger(value.version)) &&
      (value.audience === 'everyone' || (typeof value.audience === 'object' && value.audience !== null));
    return ok ? (value as ChangeNotice) : undefined;
  } catch {
    return undefined;
  }
}

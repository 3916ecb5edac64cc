import pg from 'pg';
import type { Logger } from 'pino';
import { accessTable, newEventId, type BusMessage, type ChangeNotice, type EventBus } from './events.ts';

const channel = 'tutorbook_events';
/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; the margin covers JSON we do not count. */
const maxPayloadBytes = 7_900;
const firstRetryMs = 250;
const maxRetryMs = 10_000;
/**
 * How long an access notice waits for every listening process to confirm it at most (`settled`): a process that
 * is stuck, or of a release from before confirmations, must not hang a sign-out with it. It acts on the notice
 * when it hears it, and drops its copies of sessions at 60 s in any case (docs/decisions/0032).
 */
const maxConfirmWaitMs = 2_000;
/** The LISTEN connections of every process on this database, which an access notice waits for. */
const countListeners = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN ${channel}'`;

/**
 * The bus for several server processes on one database: a publish is a `pg_notify`, and every process (the
 * publisher too) hears it through its own LISTEN, so there is one path for every notice. LISTEN holds its own
 * connection, outside the pool, for as long as the process runs. When that connection drops, notices sent
 * until it is back are lost for good, so subscribers are told to resync once it listens again.
 *
 * An access notice (a session ended, a role taken away) carries a confirmation id: every process that hears it
 * acts on it (its subscribers, the session cache among them, run as it is delivered) and then says so on the
 * channel, and `settled()` resolves once as many processes said so as held a LISTEN connection when it was
 * published, so that what ended a session answers only once no process still holds a copy of it
 * (docs/decisions/0040). PostgreSQL hands a notice to each connection some milliseconds apart; without the
 * confirmations, the next request could reach a process that had not read it yet.
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
  const sending = new Set<Promise<void>>();
  /** Access notices published here, by confirmation id, until every listening process confirmed them. */
  const unconfirmed = new Map<string, Unconfirmed>();
  let confirmations = 0;
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
      const parsed = parsePayload(message.payload);
      if (!parsed)
        return logger.warn({ payload: message.payload.slice(0, 200) }, 'event bus: ignored a malformed notice');
      if ('confirms' in parsed) return unconfirmed.get(parsed.confirms)?.heardOne();
      deliver({ type: 'notice', event: { ...parsed.notice, id: newEventId(prefix) } });
      // Acted on (the subscribers ran as it was delivered): the process that published it may answer.
      if (parsed.confirm) notify(JSON.stringify({ confirms: parsed.confirm }), 'confirmation');
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

  function notify(payload: string, what: string) {
    const notifying = publisher
      .query('SELECT pg_notify($1, $2)', [channel, payload])
      .then(() => {})
      .catch((error: unknown) => logger.error({ err: error, what }, 'event bus: a notice could not be published'))
      .finally(() => sending.delete(notifying));
    sending.add(notifying);
  }

  /**
   * A confirmation id for an access notice, and its wait: for as many confirmations as there are LISTEN
   * connections now (counted before the notice goes out, on the same connection, so none that hears it is left
   * out), for each part of the notice. Without a LISTEN connection of its own, this process could hear none: it
   * waits for nothing but the NOTIFY.
   */
  function awaitConfirmations(parts: number): string | undefined {
    if (!hearing) return undefined;
    const id = `${prefix}.${++confirmations}`;
    let heard = 0;
    let needed: number | undefined;
    let done = () => {};
    const confirmed = new Promise<void>((resolve) => (done = resolve));
    const settle = () => {
      if (needed === undefined || heard < needed) return;
      clearTimeout(timer);
      unconfirmed.delete(id);
      done();
    };
    const timer = setTimeout(() => {
      logger.warn({ heard, needed }, 'event bus: not every process confirmed an access notice in time');
      unconfirmed.delete(id);
      done();
    }, maxConfirmWaitMs);
    unconfirmed.set(id, {
      confirmed,
      heardOne: () => {
        heard++;
        settle();
      },
    });
    publisher.query<{ n: number }>(countListeners).then(
      (result) => {
        needed = (result.rows[0]?.n ?? 0) * parts;
        settle();
      },
      (error: unknown) => {
        logger.error({ err: error }, 'event bus: could not count the processes that listen');
        needed = 0;
        settle();
      },
    );
    return id;
  }

  return {
    publish(notice) {
      if (closed) return;
      let parts = payloads(notice);
      const confirm = notice.table === accessTable ? awaitConfirmations(parts.length) : undefined;
      if (confirm) parts = payloads(notice, confirm);
      for (const part of parts) notify(part, notice.table);
    },
    subscribe(listen) {
      listeners.add(listen);
      return () => listeners.delete(listen);
    },
    hearsAll: () => hearing,
    async settled() {
      // Each waits no longer than maxConfirmWaitMs. A NOTIFY without confirmations (this process not listening) is
      // waited for too: PostgreSQL hands it to every LISTEN connection as it commits.
      await Promise.all([...sending, ...[...unconfirmed.values()].map((waiting) => waiting.confirmed)]);
    },
    async close() {
      // A process that publishes and then stops (the CLI: `staff remove`) must not end before its notices left.
      await Promise.all(sending);
      closed = true;
      clearTimeout(retryTimer);
      listeners.clear();
      await Promise.all([listener?.end().catch(() => {}), publisher.end()]);
    },
  };
}

/**
 * The notice as one or more JSON payloads under the size limit, the ids spread over them, each with the version
 * and the confirmation id.
 */
function payloads(notice: ChangeNotice, confirm?: string): string[] {
  // JSON.stringify leaves out a version or confirmation id that is undefined.
  const withIds = (ids: readonly string[]) =>
    JSON.stringify({ table: notice.table, ids, audience: notice.audience, version: notice.version, confirm });
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

interface Unconfirmed {
  confirmed: Promise<void>;
  heardOne(): void;
}

/** What a payload says: a notice (with the id to confirm it by, for an access notice), or a confirmation. */
function parsePayload(payload: string): { notice: ChangeNotice; confirm?: string } | { confirms: string } | undefined {
  try {
    const value = JSON.parse(payload) as Partial<ChangeNotice> & { confirm?: unknown; confirms?: unknown };
    if (typeof value.confirms === 'string') return { confirms: value.confirms };
    const ok =
      typeof value.table === 'string' &&
      Array.isArray(value.ids) &&
      value.ids.every((id) => typeof id === 'string') &&
      (value.version === undefined || Number.isSafeInteger(value.version)) &&
      (value.audience === 'everyone' || (typeof value.audience === 'object' && value.audience !== null));
    if (!ok) return undefined;
    const { table, ids, audience, version } = value as ChangeNotice;
    const notice: ChangeNotice = version === undefined ? { table, ids, audience } : { table, ids, audience, version };
    return typeof value.confirm === 'string' ? { notice, confirm: value.confirm } : { notice };
  } catch {
    return undefined;
  }
}

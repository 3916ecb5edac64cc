import { deadline } from './deadline.ts';
import type { TestClient } from './harness.ts';

/** One message of a Server-Sent Event stream, or a comment line (`event: 'comment'`). */
export interface StreamMessage {
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

export interface TestEventStream {
  response: Response;
  /** Everything received so far, comments included, in order. */
  messages: StreamMessage[];
  /** The first message after the ones already returned that matches; waits for it (`timeoutMs` scaled: deadline.ts). */
  next(match?: (message: StreamMessage) => boolean, timeoutMs?: number): Promise<StreamMessage>;
  /** Resolves when the server ends the stream (`true`), or `false` when it broke off instead. */
  ended: Promise<boolean>;
  /** Closes the stream from this side, like a browser tab going away. */
  abort(): void;
}

/**
 * Opens `GET /api/events` like a browser's EventSource: with the client's cookies (a visitor without one) and
 * `Last-Event-ID` when resuming. Parses the stream per the HTML spec's rules that the server uses.
 */
export async function openEventStream(
  target: { url: string } | TestClient,
  options: { lastEventId?: string } = {},
): Promise<TestEventStream> {
  const baseUrl = 'baseUrl' in target ? target.baseUrl : target.url;
  const headers = new Headers({ accept: 'text/event-stream' });
  if ('cookies' in target && target.cookies.size > 0)
    headers.set('cookie', [...target.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
  if (options.lastEventId !== undefined) headers.set('last-event-id', options.lastEventId);
  const controller = new AbortController();
  const response = await fetch(new URL('/api/events', baseUrl), { headers, signal: controller.signal });
  if (!response.ok || !response.body)
    throw new Error(`GET /api/events answered ${response.status}: ${await response.text()}`);

  const messages: StreamMessage[] = [];
  const waiters = new Set<() => void>();
  let read = 0;
  let done = false;
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    let current: Partial<StreamMessage> & { data?: string } = {};
    try {
      const reader = response.body!.getReader();
      for (;;) {
        const { done: finished, value } = await reader.read();
        if (finished) break;
        buffer += decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          if (line === '') {
            if (current.data !== undefined || current.event !== undefined || current.retry !== undefined) {
              messages.push({
                event: current.event ?? 'message',
                data: current.data ?? '',
                id: current.id,
                retry: current.retry,
              });
            }
            current = {};
          } else if (line.startsWith(':')) {
            messages.push({ event: 'comment', data: line.slice(1).trim() });
          } else {
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'data') current.data = current.data === undefined ? value : `${current.data}\n${value}`;
            else if (field === 'event') current.event = value;
            else if (field === 'id') current.id = value;
            else if (field === 'retry') current.retry = Number(value);
          }
        }
        for (const wake of waiters) wake();
      }
      return true;
    } catch {
      return false;
    } finally {
      done = true;
      for (const wake of waiters) wake();
    }
  })();

  return {
    response,
    messages,
    ended,
    abort: () => controller.abort(),
    async next(match = () => true, timeoutMs = 5_000) {
      const until = Date.now() + deadline(timeoutMs);
      for (;;) {
        while (read < messages.length) {
          const message = messages[read++]!;
          if (match(message)) return message;
        }
        if (done) throw new Error(`The stream ended before the message. Received: ${JSON.stringify(messages)}`);
        const left = until - Date.now();
        if (left <= 0) throw new Error(`Timed out waiting for a message. Received: ${JSON.stringify(messages)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          const wake = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
        });
      }
    },
  };
}

/** A `change` message's data. */
export function changeOf(message: StreamMessage): { table: string; ids: string[]; version?: number } {
  return JSON.parse(message.data) as { table: string; ids: string[]; version?: number };
}

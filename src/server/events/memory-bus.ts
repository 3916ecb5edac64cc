import { newEventId, type BusMessage, type EventBus } from './events.ts';

/**
 * The bus for one server process: a publish reaches this process's subscribers at once. Event ids carry a
 * per-process prefix, so an id from another process (or from before a restart) is recognisably not ours.
 */
export function createMemoryBus(): EventBus {
  const listeners = new Set<(message: BusMessage) => void>();
  const prefix = crypto.randomUUID().slice(0, 8);
  return {
    publish(notice) {
      const message: BusMessage = { type: 'notice', event: { ...notice, id: newEventId(prefix) } };
      for (const listener of listeners) listener(message);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}

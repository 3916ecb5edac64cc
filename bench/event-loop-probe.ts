import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks';

/**
 * Loaded into a server process by `node --import` (bench/mixed.ts): measures the process's event-loop delay
 * between its parent's `'start'` and `'stop'` messages, and answers `'stop'` with the p99 and the maximum, in ms.
 */
let delay: ELDHistogram | undefined;
process.on('message', (message) => {
  if (message === 'start') {
    delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
  } else if (message === 'stop' && delay) {
    delay.disable();
    process.send?.({ p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 });
  }
});
// The channel alone does not keep the server running.
process.channel?.unref();

import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IN_FLIGHT_MS, STOP_MARGIN_MS, stopDeadlineMs, stopOnSignals } from './stop-signals';

const removers: (() => void)[] = [];
afterEach(() => {
  while (removers.length > 0) removers.pop()!();
  vi.useRealTimers();
});

/** A server whose drain the test settles; exit codes recorded instead of exiting. */
function fakeServer() {
  let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const drain = vi.fn(
    (_ms: number) => new Promise<void>((resolve, reject) => (settle = { resolve, reject })),
  );
  const exits: number[] = [];
  const server = { app: Fastify({ logger: false }), drain };
  removers.push(stopOnSignals(server, { drainMs: 2_000, exit: (code) => exits.push(code) }));
  return { drain, exits, settle: () => settle! };
}

describe('stop signals', () => {
  it('drains once on SIGTERM and exits 0 when everything closed', async () => {
    const { drain, exits, settle } = fakeServer();
    process.emit('SIGTERM');
    expect(drain).toHaveBeenCalledWith(2_000);
    expect(exits).toEqual([]);
    settle().resolve();
    await vi.waitFor(() => expect(exits).toEqual([0]));
    expect(drain).toHaveBeenCalledTimes(1);
  });

  it('exits 1 at once on a second signal, and 1 when closing fails', async () => {
    const first = fakeServer();
    process.emit('SIGINT');
    process.emit('SIGTERM');
    expect(first.exits).toEqual([1]);
    removers.pop()!();
    const second = fakeServer();
    process.emit('SIGTERM');
    second.settle().reject(new Error('database would not close'));
    await vi.waitFor(() => expect(second.exits).toEqual([1]));
  });

  it('exits 1 when the stop outruns the drain plus its bounds', () => {
    vi.useFakeTimers();
    const { exits } = fakeServer();
    process.emit('SIGTERM');
    vi.advanceTimersByTime(stopDeadlineMs(2_000) - 1);
    expect(exits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(exits).toEqual([1]);
    expect(stopDeadlineMs(2_000)).toBe(2_000 + IN_FLIGHT_MS + STOP_MARGIN_MS);
  });
});

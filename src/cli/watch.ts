/**
 * Waiting on a runtime's events without sleeping: "until /root/release-notes finished its
 * second turn", "until /root/benchmarks/bench-runner is acting". The scripted agents use it
 * so the story plays out in the same order at any latency, zero included.
 */
import type { Runtime } from '../index.js';

interface Waiter {
  readonly ready: () => boolean;
  readonly resolve: () => void;
}

/** Records what a runtime did and resolves waits on it. Attach before the session starts. */
export class SessionWatch {
  private readonly turns = new Set<string>();
  private readonly states = new Map<string, string[]>();
  private waiters: Waiter[] = [];
  private unsubscribe: Array<() => void> = [];
  private runtime: Runtime | undefined;

  /** Starts recording `runtime`'s turn, change and result events. */
  attach(runtime: Runtime): void {
    this.runtime = runtime;
    this.unsubscribe.push(
      runtime.on('turn', (report) => {
        this.turns.add(`${report.path}#${report.turn}`);
        this.check();
      }),
      runtime.on('change', (change) => {
        const seen = this.states.get(change.path) ?? [];
        seen.push(change.state);
        this.states.set(change.path, seen);
        this.check();
      }),
      runtime.on('result', () => this.check()),
    );
  }

  /** Stops recording. Pending waits stay pending (their signals still abort them). */
  detach(): void {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
  }

  /** Whether the continuable agent (or the root) at `path` finished turn `turn` (zero-based). */
  turnEnded(path: string, turn: number): boolean {
    return this.turns.has(`${path}#${turn}`);
  }

  /** Whether the agent at `path` has been in a state starting with `prefix`. */
  reached(path: string, prefix: string): boolean {
    return (this.states.get(path) ?? []).some((state) => state.startsWith(prefix));
  }

  /** Subagent paths seen so far, in order of first appearance. */
  get subagents(): string[] {
    const root = this.runtime?.rootPath ?? '/root';
    return [...this.states.keys()].filter((path) => path !== root);
  }

  /** Resolves once `ready()` holds (checked now and after every event); rejects on abort. */
  until(ready: () => boolean, signal?: AbortSignal): Promise<void> {
    if (ready()) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        ready,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private check(): void {
    const ready = this.waiters.filter((w) => w.ready());
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  }
}

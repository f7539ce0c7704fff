/**
 * Waiting on a runtime's events without sleeping: "until /root/release-notes finished its
 * second turn", "until /root/benchmarks/bench-runner is acting". The scripted agents use it
 * so the story plays out in the same order at any latency, zero included. It is fed the
 * runtime's event stream, so what it knows is what a view fed the same stream has shown.
 */
import type { DialogueView, Runtime, RuntimeStreamEvent } from '../index.js';

interface Waiter {
  readonly ready: () => boolean;
  readonly resolve: () => void;
}

/** The agent's own final answers: assistant replies without tool calls after its seed. */
function ownAnswers(dialogue: DialogueView | undefined): number {
  if (!dialogue) return 0;
  // A seeded dialogue (a fork's, or one given a background) knows its seed's length.
  const seed = 'seedLength' in dialogue && typeof dialogue.seedLength === 'number' ? dialogue.seedLength : 0;
  let answers = 0;
  for (let position = seed; position < dialogue.length; position++) {
    const entry = dialogue.at(position);
    if (entry?.kind === 'assistant' && entry.toolCalls.length === 0) answers++;
  }
  return answers;
}

/** Whether an agent in `state` is doing work. */
const isBusy = (state: string): boolean => state !== 'running.idle' && state !== 'settled' && state !== 'cancelled';

/** Records what a runtime did and resolves waits on it. Attach (or feed it) before the session starts. */
export class SessionWatch {
  private readonly turns = new Set<string>();
  private readonly states = new Map<string, string[]>();
  private readonly spawned: string[] = [];
  private readonly settled = new Set<string>();
  private readonly busy = new Set<string>();
  private waiters: Waiter[] = [];
  private over = false;
  private reading: AbortController | undefined;
  /** Per agent, the turns it had ended when the watch was seeded (a resumed session's, before the crash). */
  private readonly turnsAtSeed = new Map<string, number>();
  /** Agents that had ended when the watch was seeded. */
  private readonly endedAtSeed = new Set<string>();

  /** Reads `runtime`'s event stream until {@link detach}; or feed events with {@link handle}. */
  attach(runtime: Runtime): void {
    const reading = new AbortController();
    this.reading = reading;
    void (async () => {
      for await (const event of runtime.events({ signal: reading.signal })) this.handle(event);
    })();
  }

  /** Records the agents alive now (a resumed session's), before any event about them. */
  seed(runtime: Runtime): void {
    // What a resumed session did before the crash: its results, and each agent's ended turns
    // (the final answers, assistant replies without tool calls, in its own part of the dialogue:
    // a fork's dialogue starts with its parent's, whose replies are not the fork's turns).
    for (const result of runtime.results) this.endedAtSeed.add(result.path);
    // Subagents that settled before the crash were spawned and settled too, so a resumed
    // session's count of subagents includes them ("6 results for 6 subagents", not "for 0").
    for (const result of runtime.results) {
      if (result.path === runtime.rootPath) continue;
      this.spawned.push(result.path);
      this.settled.add(result.path);
    }
    for (const info of runtime.list()) this.turnsAtSeed.set(info.path, ownAnswers(runtime.transcript(info.path)));
    for (const info of runtime.list()) {
      this.states.set(info.path, [info.state]);
      if (isBusy(info.state)) this.busy.add(info.path);
      if (info.path !== runtime.rootPath) this.spawned.push(info.path);
    }
  }

  /** Stops reading. Pending waits stay pending (their signals still abort them). */
  detach(): void {
    this.reading?.abort();
    this.reading = undefined;
  }

  /** Records one event of the runtime's stream and resolves the waits it satisfies. */
  handle(event: RuntimeStreamEvent): void {
    switch (event.type) {
      case 'turn-ended':
        this.turns.add(`${event.path}#${event.report.turn}`);
        break;
      case 'subagent-spawned':
        this.spawned.push(event.path);
        break;
      case 'subagent-settled':
        this.settled.add(event.path);
        break;
      case 'session-ended':
      case 'halted':
        this.over = true;
        break;
      case 'state-changed': {
        const seen = this.states.get(event.path) ?? [];
        seen.push(event.state);
        this.states.set(event.path, seen);
        if (isBusy(event.state)) this.busy.add(event.path);
        else this.busy.delete(event.path);
        break;
      }
      default:
        return;
    }
    this.check();
  }

  /**
   * Whether the continuable agent (or the root) at `path` finished turn `turn` (zero-based).
   * A resumed session's turns that ended before the crash count too (see {@link seed}).
   */
  turnEnded(path: string, turn: number): boolean {
    return this.turns.has(`${path}#${turn}`) || (this.turnsAtSeed.get(path) ?? 0) > turn;
  }

  /**
   * Whether the agent at `path` has been in a state starting with `prefix` (seeded states
   * included), or had ended when the watch was seeded (it went through its states before the crash).
   */
  reached(path: string, prefix: string): boolean {
    return this.endedAtSeed.has(path) || (this.states.get(path) ?? []).some((state) => state.startsWith(prefix));
  }

  /** Whether the agent at `path` is now in a state starting with `prefix`. */
  isIn(path: string, prefix: string): boolean {
    return this.states.get(path)?.at(-1)?.startsWith(prefix) === true;
  }

  /** Subagent paths seen so far, in order of spawning. */
  get subagents(): string[] {
    return [...this.spawned];
  }

  /** Whether the session stopped or halted: nothing more will happen, so no wait should go on. */
  get ended(): boolean {
    return this.over;
  }

  /** Whether every subagent seen so far has settled (reported its one result), or the session ended. */
  get allSettled(): boolean {
    return this.over || this.spawned.every((path) => this.settled.has(path));
  }

  /** Whether no agent seen is working (each is idle or finished), or the session ended. */
  get quiet(): boolean {
    return this.over || this.busy.size === 0;
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

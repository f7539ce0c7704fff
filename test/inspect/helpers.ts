/**
 * Helpers for inspector tests: a collecting WebSocket endpoint and the short session the
 * tests run (the root delegates to a forked subagent that replies).
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { scriptedModel } from '../../src/model/scripted.js';

/** A long unique text placed in the root's first dialogue entry; no message may contain it. */
export const MARKER = `MARKER-${'0123456789abcdef'.repeat(24)}-END`;

/** A unique system prompt; with sanitizing options no message may contain it. */
export const SYSTEM_PROMPT = `You are the root agent of an inspector test. SYSTEM-PROMPT-${'x'.repeat(40)}`;

/**
 * Runtime options for the session: its fork settles after its answer (forks are continuable
 * by default, and these tests watch a subagent end).
 */
export const ONE_SHOT_FORKS = { defaults: { lifetime: 'one-shot' } } as const;

/** The session's model: the root forks `/root/research`, which answers 42 (one-shot: see {@link ONE_SHOT_FORKS}). */
export function sessionModel() {
  return scriptedModel({
    '/root': {
      0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'research', message: 'find the answer', context: 'all' } }] }, { text: 'the answer is 42' }],
    },
    '/root/research': { 0: [{ text: '42' }] },
  });
}

/** A message the Stately inspector sends (the fields the tests read). */
export interface StatelyMessage {
  readonly type: '@xstate.actor' | '@xstate.event' | '@xstate.snapshot';
  readonly sessionId: string;
  readonly name?: string;
  readonly event?: { readonly type: string };
  readonly snapshot?: { readonly status?: string; readonly value?: unknown; readonly context?: Record<string, unknown> };
}

/** Received messages, raw and parsed, with a way to wait for a condition on them. */
export class Received {
  readonly raw: string[] = [];
  readonly messages: StatelyMessage[] = [];
  #waiters: Array<{ check: () => boolean; resolve: () => void }> = [];

  add(text: string): void {
    this.raw.push(text);
    this.messages.push(JSON.parse(text) as StatelyMessage);
    this.#waiters = this.#waiters.filter((w) => (w.check() ? (w.resolve(), false) : true));
  }

  /** Resolves once `check` holds (checked now and on every message). */
  until(check: (messages: readonly StatelyMessage[]) => boolean): Promise<void> {
    if (check(this.messages)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ check: () => check(this.messages), resolve }));
  }

  /** The actor name (agent path) of each session id, from `@xstate.actor` messages. */
  names(): Map<string, string> {
    return new Map(this.messages.filter((m) => m.type === '@xstate.actor').map((m) => [m.sessionId, m.name ?? '']));
  }

  /** Messages of one kind about the actor named `name`. */
  about(name: string, type: StatelyMessage['type']): StatelyMessage[] {
    const ids = new Set([...this.names()].filter(([, n]) => n === name).map(([id]) => id));
    return this.messages.filter((m) => m.type === type && ids.has(m.sessionId));
  }
}

/** A WebSocket server on 127.0.0.1 (free port) that collects every message it receives. */
export async function collectingServer(): Promise<{ url: string; received: Received; connected: Promise<WebSocket>; close(): Promise<void> }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const received = new Received();
  const connected = new Promise<WebSocket>((resolve) =>
    wss.on('connection', (ws) => {
      ws.on('message', (data) => received.add(data.toString()));
      resolve(ws);
    }),
  );
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    received,
    connected,
    close: async () => {
      await Promise.all(
        [...wss.clients].map((c) => new Promise<void>((resolve) => (c.readyState === c.CLOSED ? resolve() : (c.once('close', () => resolve()), c.close())))),
      );
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/**
 * Sessions that fork, run through a real provider package against the stand-in: the root
 * follows a script of replies, each subagent is told apart by a `[task:<name>]` marker in its
 * task. Tests and `bench/wire.bench.ts` run them and read the recorded bodies.
 */
import { z } from 'zod';
import { aiSdkModel, type AiSdkModelOptions } from '../../src/model/ai-sdk.js';
import { resumeRuntime } from '../../src/runtime/resume.js';
import type { RoleDefinition } from '../../src/runtime/roles.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import type { Runtime } from '../../src/runtime/runtime-handle.js';
import type { AgentResult } from '../../src/runtime/types.js';
import { createJsonlStore, openJsonlStore } from '../../src/store/jsonl.js';
import { PROVIDER_IDS, wireModel } from './providers.js';
import { userTexts, type RecordedRequest, type StandIn, type WireApi, type WireReply, type WireToolCall } from './stand-in/index.js';
import { wireRequestOf, type WireRequest } from '../../src/request/wire-prefix.js';

/** The kinds of session the wire tests run. */
export type ScenarioKind = 'plain_fork' | 'persona_fork' | 'follow_up' | 'root_streaming' | 'structured_output' | 'native_output' | 'wide_step' | 'close_forks';

export const SCENARIO_KINDS: readonly ScenarioKind[] = ['plain_fork', 'persona_fork', 'follow_up', 'root_streaming', 'structured_output', 'native_output', 'wide_step', 'close_forks'];

/** What a session left: every request the stand-in recorded, and each subagent's result. */
export interface ScenarioRun {
  readonly api: WireApi;
  readonly requests: readonly RecordedRequest[];
  readonly results: ReadonlyMap<string, AgentResult>;
}

const marker = (name: string) => `[task:${name}]`;
const MARKED = /\[task:([a-z0-9_-]+)\]/;

/** The subagent a request is from (by the marker in its task), or undefined for the root. */
export function requester(request: RecordedRequest): string | undefined {
  for (const text of userTexts(request)) {
    const found = MARKED.exec(text);
    if (found !== null) return found[1];
  }
  return undefined;
}

const agent = (name: string, extra: Record<string, unknown> = {}): WireToolCall => ({ name: 'Agent', arguments: { task_name: name, message: `${marker(name)} look deeper`, context: 'all', ...extra } });

const located = { type: 'object', properties: { file: { type: 'string' } }, required: ['file'], additionalProperties: false } as const;

/** Roles without a tools list; the runtime allows nesting, so their subagents keep every tool (and the parent's head). */
const ROLES: readonly RoleDefinition[] = [
  { name: 'reviewer', description: 'Reviews code.', instructions: 'You review code and name every problem.' },
  { name: 'locator', description: 'Finds code.', instructions: 'Find the place.', output: located },
];

/** The root's replies, in order, for each kind (after them the root answers `ok`). */
function rootScript(kind: ScenarioKind): WireReply[] {
  const forks = Array.from({ length: 8 }, (_, n) => `f${n}`);
  switch (kind) {
    case 'plain_fork':
    case 'root_streaming':
      return [{ toolCalls: [agent('fork')] }, { text: 'done' }];
    case 'persona_fork':
      return [{ toolCalls: [agent('fork', { role: 'reviewer' })] }, { text: 'done' }];
    case 'structured_output':
    case 'native_output':
      return [{ toolCalls: [agent('fork', { role: 'locator' })] }, { text: 'done' }];
    case 'follow_up':
      return [{ toolCalls: [agent('fork')] }, { toolCalls: [{ name: 'send_message', arguments: { agent_id: '/root/fork', message: 'And the tests?' } }] }, { text: 'done' }];
    case 'wide_step':
      return [{ toolCalls: Array.from({ length: 10 }, (_, n) => ({ name: 'lookup', arguments: { n } })) }, { toolCalls: [agent('fork')] }, { text: 'done' }];
    case 'close_forks':
      return [
        { toolCalls: forks.map((name) => agent(name)) },
        { toolCalls: forks.map((name) => ({ name: 'close_agent', arguments: { agent_id: `/root/${name}` } })) },
        { text: 'done' },
      ];
  }
}

const lookup = defineRuntimeTool({ name: 'lookup', description: 'Looks a number up.', schema: z.object({ n: z.number().int() }), execute: ({ n }) => `lookup ${n}: ${'x'.repeat(40)}` });

/** A responder that follows the root's script and answers each subagent by its marker. */
function responder(kind: ScenarioKind): (request: RecordedRequest) => WireReply {
  const script = rootScript(kind);
  let rootAt = 0;
  const forkAt = new Map<string, number>();
  return (request) => {
    const name = requester(request);
    if (name === undefined) return script[rootAt++] ?? { text: 'ok' };
    const n = forkAt.get(name) ?? 0;
    forkAt.set(name, n + 1);
    if (n > 0) return { text: `${name} followed up` };
    return { text: kind === 'structured_output' || kind === 'native_output' ? '{"file":"a.ts"}' : `${name} looked` };
  };
}

/** Closes every subagent still open, then collects each one's result. */
async function settleAll(rt: Runtime, names: Iterable<string>): Promise<Map<string, AgentResult>> {
  await rt.whenQuiet();
  const results = new Map<string, AgentResult>();
  for (const name of names) {
    const path = `/root/${name}`;
    const state = rt.stateOf(path);
    if (state !== undefined && state.startsWith('running')) rt.close(path);
    results.set(name, await rt.result(path));
  }
  return results;
}

/** The subagents a run's requests came from, in the order of their first requests. */
function subagentsOf(requests: readonly RecordedRequest[]): string[] {
  const names: string[] = [];
  for (const request of requests) {
    const name = requester(request);
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Runs one session of `kind` through `api`'s real provider package and returns what the
 * stand-in recorded and every subagent's result.
 */
export async function runScenario(standIn: StandIn, api: WireApi, kind: ScenarioKind, options: AiSdkModelOptions = {}): Promise<ScenarioRun> {
  standIn.clear();
  standIn.respondWith(responder(kind));
  const adapter = aiSdkModel(wireModel(standIn, api), { cacheHints: true, onWarning: () => {}, ...(kind === 'native_output' ? { nativeOutput: true } : {}), ...options });
  const rt = createRuntime({ model: adapter, tools: [lookup], roles: ROLES, allowNesting: true });
  const watching = new AbortController();
  const reading =
    kind === 'root_streaming'
      ? (async () => {
          for await (const _event of rt.events({ path: '/root', signal: watching.signal }));
        })()
      : Promise.resolve();
  const outcome = await rt.prompt('Look at a.ts and its tests.');
  if (outcome.status !== 'completed') throw new Error(`the root's turn ended ${outcome.status}: ${outcome.error ?? ''}`);
  const results = await settleAll(rt, subagentsOf(standIn.requestsTo(api)));
  watching.abort();
  await reading;
  rt.stop();
  return { api, requests: standIn.requestsTo(api), results };
}

/**
 * A session in two processes: a first turn journaled to a JSON Lines store in `dir`, then,
 * from that journal alone, a resumed runtime whose turn forks once.
 */
export async function runResumedScenario(standIn: StandIn, api: WireApi, dir: string): Promise<ScenarioRun & { readonly beforeResume: number }> {
  const sessionId = `resumed-${api}`;
  standIn.clear();
  standIn.respondWith(responder('plain_fork'));
  const options: AiSdkModelOptions = { cacheHints: true, onWarning: () => {} };
  const store = createJsonlStore({ dir, sessionId, fsync: 'never' });
  const first = createRuntime({ model: aiSdkModel(wireModel(standIn, api), options), tools: [lookup], roles: ROLES, allowNesting: true, store });
  // The first turn's script: fork, then answer; the fork is closed before the process ends.
  await first.prompt('Look at a.ts and its tests.');
  await settleAll(first, subagentsOf(standIn.requestsTo(api)));
  await first.whenQuiet();
  await store.close();
  const beforeResume = standIn.requestsTo(api).length;

  const reopened = openJsonlStore({ dir, sessionId, fsync: 'never' });
  const resumed = resumeRuntime({ model: aiSdkModel(wireModel(standIn, api), options), tools: [lookup], roles: ROLES, allowNesting: true, store: reopened });
  standIn.respondWith(resumedResponder());
  const outcome = await resumed.prompt('Now look at b.ts.');
  if (outcome.status !== 'completed') throw new Error(`the resumed turn ended ${outcome.status}: ${outcome.error ?? ''}`);
  const results = await settleAll(resumed, ['again']);
  resumed.stop();
  await reopened.close();
  return { api, requests: standIn.requestsTo(api), results, beforeResume };
}

/** The resumed turn: the root forks `again`, then answers. */
function resumedResponder(): (request: RecordedRequest) => WireReply {
  const script: WireReply[] = [{ toolCalls: [agent('again')] }, { text: 'done again' }];
  let rootAt = 0;
  return (request) => (requester(request) === undefined ? (script[rootAt++] ?? { text: 'ok' }) : { text: 'again looked' });
}

/** A recorded request read in its provider's cache order (`taskParts`: the parts of its last user entry). */
export function wireOf(request: RecordedRequest, taskParts = 0): WireRequest {
  const wire = wireRequestOf({ provider: PROVIDER_IDS[request.api], body: request.body, taskParts });
  if (wire === undefined) throw new Error(`request ${request.index} could not be read in cache order`);
  return wire;
}

/** The root's requests of a run, in order. */
export const rootRequests = (run: Pick<ScenarioRun, 'requests'>): RecordedRequest[] => run.requests.filter((r) => requester(r) === undefined);

/** A subagent's requests, in order. */
export const requestsOf = (run: Pick<ScenarioRun, 'requests'>, name: string): RecordedRequest[] => run.requests.filter((r) => requester(r) === name);

/** The root's last request before `request`: what a subagent's first request is measured against. */
export function parentRequestBefore(run: Pick<ScenarioRun, 'requests'>, request: RecordedRequest): RecordedRequest {
  const before = rootRequests(run).filter((r) => r.index < request.index);
  const parent = before.at(-1);
  if (parent === undefined) throw new Error(`no root request before request ${request.index}`);
  return parent;
}

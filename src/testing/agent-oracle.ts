/**
 * An oracle for agent paths that does not ask the machine what should happen. The paths are
 * generated from the machine, so the state each step expects comes from the machine too: a
 * wrong transition would generate a wrong expectation and pass. The oracle instead reads the
 * promises written beside the machine in each state's `meta` ({@link AgentStateMeta}) and
 * checks, after every step, what a host really sees: the listing and addressability, the
 * slots held, the results and turns delivered, the model requests made and the tool calls run.
 */
import type { AnyStateMachine } from 'xstate';
import type { AgentStateMeta } from '../../machines/agent.meta.js';
import { mergeStateMeta, REQUIRED_STATE_META } from '../../machines/agent.meta.js';
import type { AgentInput, AgentResult, InboxItem, SampleInput, ToolStepInput, TurnReport } from '../../machines/agent.types.js';
import type { ToolCall } from '../dialogue/entry.js';
import { stateValueString } from '../text/state-value.js';
import { reportPresenter } from '../../machines/subagent-reports.js';
import type { AgentPathObserver, AgentStepSeen } from './run-agent-path.js';
import { PathMismatchError } from './path-error.js';
import { stateNodesOf } from '../inspect/transitions.js';

/** What the host running the agent exposes; the oracle reads nothing else of the run. */
export interface AgentOracleHost {
  /** The state `runtime.list()` shows for the agent, or `undefined` when it is not listed. */
  listedState(): string | undefined;
  /** Whether `list_agents` shows the agent to a peer allowed to message it. */
  addressable(): boolean;
  /** `runtime.slotsInUse`. */
  slotsInUse(): number;
  /** The agent's results the host received (`result` events), oldest first. */
  results(): readonly AgentResult[];
  /** The agent's turn reports the host received (`turn` events), oldest first. */
  turns(): readonly TurnReport[];
  /** How many of its results reached its parent (as the `Agent` call's answer or an inbox notice); omit for the root. */
  resultsAtParent?(): number;
  /** Whether its parent still holds it as a live subagent (its id not yet free); omit for the root. */
  heldByParent?(): boolean;
}

/** The actor source each kind of work runs as (`meta.works`). */
const WORK_SOURCES = { hooks: 'runTaskHooks', summary: 'generateSummary', model: 'sampleModel', tools: 'runToolCalls' } as const;

/** Thrown when a step breaks a promise of the state meta. */
export class AgentOracleError extends PathMismatchError {
  constructor(mismatch: ConstructorParameters<typeof PathMismatchError>[0]) {
    super(mismatch);
    this.name = 'AgentOracleError';
  }
}

/**
 * The meta of the state `snapshot` is in, merged from its ancestors. Throws when a state the
 * agent can wait in lacks a required field.
 */
export function agentStateMeta(snapshot: { getMeta(): Record<string, unknown> }): AgentStateMeta {
  return mergeStateMeta(snapshot.getMeta() as Record<string, AgentStateMeta | undefined>);
}

/**
 * The stable states of `machine` (no eventless transition leaves them) whose merged meta
 * misses a required field, as `state: field, field`. Empty when every state is described.
 */
export function undescribedStates(machine: AnyStateMachine): string[] {
  const out: string[] = [];
  for (const node of stateNodesOf(machine)) {
    if (node.type === 'compound' || node.type === 'parallel' || node.always !== undefined) continue;
    const byNode: Record<string, AgentStateMeta | undefined> = {};
    for (let n: typeof node | undefined = node; n; n = n.parent) byNode[n.id] = n.meta as AgentStateMeta | undefined;
    const meta = mergeStateMeta(byNode);
    const missing = REQUIRED_STATE_META.filter((field) => meta[field] === undefined);
    if (missing.length > 0) out.push(`${node.path.join('.')}: ${missing.join(', ')}`);
  }
  return out;
}

/**
 * Builds the observer that checks one run of an agent path against `host`. Pass it to
 * `runAgentPath(path, { observer })`; a broken promise throws an {@link AgentOracleError}.
 *
 * @example
 * ```ts
 * const host = myHostFor(path.input); // listing, slots, results, turns of your runtime
 * await runAgentPath(path, { provide: host.provide, observer: agentOracle(path.input, host) });
 * ```
 */
export function agentOracle(input: AgentInput, host: AgentOracleHost): AgentPathObserver {
  const state = new OracleState(input, host);
  return { step: (seen) => state.check(seen) };
}

class OracleState {
  private previous: AgentStateMeta = {};
  private closePending = false;
  private inboxSent: InboxItem[] = [];
  private requestsBefore = 0;
  private resultsBefore = 0;
  private turnsBefore = 0;

  constructor(
    private readonly input: AgentInput,
    private readonly host: AgentOracleHost,
  ) {}

  check(seen: AgentStepSeen): void {
    const meta = agentStateMeta(seen.snapshot);
    const state = stateValueString(seen.snapshot.value);
    const fail = (label: string, expected: string, actual: string): never => {
      throw new AgentOracleError({ path: seen.path.name, step: seen.index, label: `${seen.step.label}: ${label}`, expected, actual });
    };
    const missing = REQUIRED_STATE_META.filter((field) => meta[field] === undefined);
    if (missing.length > 0) fail('state meta', `meta for ${state} with ${REQUIRED_STATE_META.join(', ')}`, `missing ${missing.join(', ')}`);

    this.checkListing(meta, state, fail);
    this.checkResults(meta, fail);
    const requests = seen.invocations.filter((i) => i.src === WORK_SOURCES.model);
    this.checkWork(meta, seen, fail);
    this.checkEvent(seen, requests, fail);
    this.checkLiveness(meta, seen, requests, fail);
    this.checkAnswered(seen, requests, fail);

    // A close that waits for the turn makes a completed turn the last: the agent settles, it reports no turn.
    const reported = this.host.turns().slice(this.turnsBefore).find((t) => t.status === 'completed');
    if (this.closePending && reported) fail('a pending close', 'the agent ends when its turn completes', `it reported turn ${reported.turn} completed and is in ${state}`);
    this.previous = meta;
    this.requestsBefore = requests.length;
    this.resultsBefore = this.host.results().length;
    this.turnsBefore = this.host.turns().length;
  }

  /** Listed state, addressability and slots. */
  private checkListing(meta: AgentStateMeta, state: string, fail: Fail): void {
    const listed = this.host.listedState();
    if ((listed !== undefined) !== meta.listed) fail('listing', meta.listed ? `listed in ${state}` : 'not listed', listed === undefined ? 'not listed' : `listed as ${listed}`);
    if (listed !== undefined && listed !== state) fail('listed state', state, listed);
    if (this.host.addressable() !== meta.addressable) fail('addressability', meta.addressable ? 'addressable' : 'not addressable', this.host.addressable() ? 'addressable' : 'not addressable');
    const slots = meta.holdsSlot === true && this.input.parentPath !== null ? 1 : 0;
    if (this.host.slotsInUse() !== slots) fail('slots held', `${slots} slot(s)`, `${this.host.slotsInUse()} slot(s)`);
  }

  /** Exactly one result once settled, none before, with an allowed status, and it reached the parent. */
  private checkResults(meta: AgentStateMeta, fail: Fail): void {
    const results = this.host.results();
    const expected = meta.settles === true ? 1 : 0;
    if (results.length !== expected) fail('results delivered', `${expected} result(s)`, `${results.length} result(s)`);
    const result = results[0];
    if (result && meta.statuses && !meta.statuses.includes(result.status)) fail('result status', meta.statuses.join(' or '), `${result.status} (${result.stopReason})`);
    if (result && this.closePending && result.status === 'completed' && result.stopReason !== 'closed') fail('a pending close', 'stop reason closed', result.stopReason);
    const atParent = this.host.resultsAtParent?.();
    if (atParent !== undefined && atParent !== expected) fail('result at the parent', `${expected} delivered`, `${atParent} delivered`);
  }

  /** Exactly the work the state names is in flight: one request, one tool step with the last reply's calls, ... */
  private checkWork(meta: AgentStateMeta, seen: AgentStepSeen, fail: Fail): void {
    for (const [work, src] of Object.entries(WORK_SOURCES)) {
      const running =
        work === 'tools'
          ? seen.toolSteps.filter((s) => !s.stopped).length
          : seen.invocations.filter((i) => i.src === src && !i.result.settled && !i.signal.aborted).length;
      const expected = meta.works === work ? 1 : 0;
      if (running !== expected) fail(`${work} in flight`, `${expected} running`, `${running} running`);
    }
    if (meta.works === 'tools') {
      const step = seen.toolSteps.findLast((s) => !s.stopped);
      const ran = ((step?.input as ToolStepInput | undefined)?.calls ?? []).map((c) => c.id).join(', ');
      const asked = lastRequestedCalls(seen).map((c) => c.id).join(', ');
      if (ran !== asked) fail('tool calls run', `the last reply's calls (${asked})`, `calls ${ran}`);
    }
  }

  /** What the event did, by the meaning the previous state gives it. */
  private checkEvent(seen: AgentStepSeen, requests: AgentStepSeen['invocations'], fail: Fail): void {
    const event = seen.step.event;
    const before = this.previous;
    const newResult = this.host.results().slice(this.resultsBefore)[0];
    if (event.type === 'close' && before.close === 'settles-closed') {
      if (newResult?.status !== 'completed' || newResult.stopReason !== 'closed') fail('close', 'a completed result with stop reason closed', newResult ? `${newResult.status} (${newResult.stopReason})` : 'no result');
    }
    if (event.type === 'close' && before.close === 'after-turn') this.closePending = true;
    if (event.type === 'cancel' && before.cancel === 'cancels' && newResult?.status !== 'cancelled') fail('cancel', 'a cancelled result', newResult ? `${newResult.status} (${newResult.stopReason})` : 'no result');
    const item = this.itemOf(event);
    if (item && before.inbox !== undefined) {
      this.inboxSent.push(item);
      const fresh = requests.length - this.requestsBefore;
      if (before.inbox === 'queued' && fresh !== 0) fail('inbox item', 'queued (no request now)', `${fresh} request(s) made`);
      if (before.inbox === 'opens-turn') {
        const request = requests.at(-1);
        if (fresh !== 1 || !request) fail('inbox item', 'opens a turn with one request', `${fresh} request(s) made`);
        const holds = countItems(request!.input as SampleInput, item);
        if (holds < this.count(item)) fail('inbox item', 'in the request it opened', 'not in the request');
      }
    }
  }

  /**
   * A turn that ends `completed` answered every inbox item sent so far: each is in the
   * dialogue of the last model request (later requests carry every earlier entry).
   */
  private checkAnswered(seen: AgentStepSeen, requests: AgentStepSeen['invocations'], fail: Fail): void {
    if (!seen.step.event.type.startsWith('xstate.done.actor.')) return;
    const turn = this.host.turns().slice(this.turnsBefore).find((t) => t.status === 'completed');
    const result = this.host.results().slice(this.resultsBefore).find((r) => r.status === 'completed');
    if (!turn && !result) return;
    const last = requests.at(-1)?.input as SampleInput | undefined;
    for (const item of this.inboxSent) {
      const sent = this.count(item);
      const answered = last ? countItems(last, item) : 0;
      if (answered < sent) fail('inbox answered', `${sent} item(s) "${item.text}" in the last request of a completed turn`, `${answered} in it`);
    }
  }

  /**
   * Promises a finite path can check that something eventually happens, at the states where
   * nothing else would make it happen: an agent waiting for input has taken every item sent
   * to it into its dialogue (queued items are answered, or the agent ends); no request of a
   * turn goes past the step cap, whatever the lifetime; a settled subagent has left its
   * parent (its id is free again).
   */
  private checkLiveness(meta: AgentStateMeta, seen: AgentStepSeen, requests: AgentStepSeen['invocations'], fail: Fail): void {
    if (meta.waitsForInput === true) {
      const dialogue = (seen.snapshot.context as { dialogue?: SampleInput['dialogue'] } | undefined)?.dialogue;
      for (const item of this.inboxSent) {
        const sent = this.count(item);
        const taken = dialogue ? countIn(dialogue, item) : 0;
        if (taken < sent) fail('queued inbox item', `"${item.text}" answered, or the agent ends`, `${sent - taken} of ${sent} still queued while it waits for input`);
      }
    }
    const cap = this.input.maxSteps;
    if (cap !== undefined) {
      for (const request of requests.slice(this.requestsBefore)) {
        const step = (request.input as SampleInput).step;
        if (step >= cap) fail('step cap', `at most ${cap} request(s) per turn`, `request ${step + 1} of turn ${(request.input as SampleInput).turn}`);
      }
    }
    if (meta.settles === true && this.host.heldByParent?.() === true) fail('settled subagent leaves its parent', 'released by its parent', 'still held by its parent');
  }

  /** The inbox item an event brings this agent: an `inbox` item, a `send_message` addressed to it, or a subagent's notice. */
  private itemOf(event: AgentStepSeen['step']['event']): InboxItem | undefined {
    if (event.type === 'inbox') return event.item;
    if (event.type === 'send_message' && event.to === this.input.path) return { text: event.message, origin: { kind: 'message', from: event.from } };
    // A subagent's report no call waits for: a notice in the default wording.
    if (event.type === 'subagent.report' && event.callId === null) return { text: DEFAULT_WORDING.notice(event.report), origin: { kind: 'notice', from: event.from } };
    return undefined;
  }

  private count(item: InboxItem): number {
    return this.inboxSent.filter((i) => sameItem(i, item)).length;
  }
}

type Fail = (label: string, expected: string, actual: string) => never;

const DEFAULT_WORDING = reportPresenter();

function sameItem(a: Pick<InboxItem, 'text' | 'origin'>, b: InboxItem): boolean {
  return a.text === b.text && a.origin.kind === b.origin.kind;
}

/** How many user entries of the request's dialogue carry `item` (its text, by its kind of sender). */
function countItems(input: SampleInput, item: InboxItem): number {
  return countIn(input.dialogue, item);
}

/** How many user entries of `dialogue` carry `item`. */
function countIn(dialogue: SampleInput['dialogue'], item: InboxItem): number {
  let n = 0;
  for (let i = 0; i < dialogue.length; i++) {
    const entry = dialogue.at(i);
    if (entry?.kind === 'user' && sameItem(entry, item)) n++;
  }
  return n;
}

/** The tool calls of the path's last model reply up to the step: what the tools must run. */
function lastRequestedCalls(seen: AgentStepSeen): readonly ToolCall[] {
  for (let i = seen.index; i >= 0; i--) {
    const event = seen.path.steps[i]!.event as { type: string; output?: { response?: { toolCalls?: readonly ToolCall[] } } };
    if (event.type === 'xstate.done.actor.model') return event.output?.response?.toolCalls ?? [];
  }
  return [];
}

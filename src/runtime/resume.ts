/**
 * `resumeRuntime`: rebuilds a session from its journal after a crash or on another node.
 *
 * Every agent comes back as the journal left it:
 * - settled agents as results (and final dialogues); a result whose delivery the journal
 *   does not show is delivered now, once; one it shows is never delivered again;
 * - agents in `running` as restored actors in the same state, with the same dialogue, inbox,
 *   counters and request head (so an idle continuable subagent's next request head is byte for
 *   byte the one it would have sent). One waiting on the model sends that request again; one
 *   running tool calls gets back the results the journal holds, re-runs calls that are safe to
 *   repeat, and gets an "interrupted" error result for the others;
 * - agents still reserved or preparing a summary start again from their input: journaled
 *   hook outcomes and backgrounds are replayed, not produced again;
 * - agents whose parent had already finished are cancelled, as they would have been.
 *
 * Actors are restored from snapshots whose child actors name their logic by string key
 * (`sampleModel`, `runToolCalls`), and no `after` timer is relied on.
 */
import { createActor, type AnyActorRef } from 'xstate';
import { holdSubagent } from '../../machines/subagents.js';
import type { AgentContext, AgentInput, InboxQueue } from '../../machines/agent.types.js';
import { agentInput } from '../../machines/agent.input.js';
import { initialAgentContext, resultOf, sampleInputOf } from '../../machines/agent.machine.js';
import { selectSnapshot } from '../context/select.js';
import type { ContextSpec } from '../context/types.js';
import { Dialogue } from '../dialogue/dialogue.js';
import { DialogueError } from '../dialogue/errors.js';
import type { ToolCall, UserOrigin } from '../dialogue/entry.js';
import { deepFreeze } from '../dialogue/freeze.js';
import { requestHeadHash } from '../request/serialize.js';
import { canonicalJson } from '../request/canonical.js';
import type { SystemConfiguration } from '../request/types.js';
import { replayJournal, type AgentImage, type SessionImage } from '../store/replay.js';
import type { CancelRecord } from '../store/records.js';
import { StoreError, type SessionStore } from '../store/types.js';
import { RuntimeCore, sanitizingObserver } from './core.js';
import { agentCoreBuilders } from './agent-logic.js';
import { approvalId } from './approvals.js';
import { restoreAuthority } from './authority.js';
import { RuntimeError } from './errors.js';
import { cancelToolContent, firstTurnToolContent, receiptToolContent, turnNotice } from '../../machines/subagent-reports.js';
import { runtimeOf } from './runtime.js';
import type { Runtime, RuntimeOptions } from './types.js';

/** Options of {@link resumeRuntime}: the runtime's options, with the store to resume from. */
export type ResumeOptions = RuntimeOptions & { readonly store: SessionStore };

/** Built-in tools whose calls may simply run again (they only read). */
const REPEATABLE_BUILTINS: ReadonlySet<string> = new Set(['list_agents']);
/** Built-ins whose effect the journal shows, so a resume can tell whether they took effect. */
const COORDINATION_TOOLS: ReadonlySet<string> = new Set(['send_message', 'cancel_agent', 'close_agent']);

/**
 * Rebuilds the session the store holds and goes on journaling to it.
 *
 * @example
 * ```ts
 * const store = openJsonlStore({ dir: './sessions', sessionId });
 * const runtime = resumeRuntime({ model, store });
 * await runtime.whenQuiet();
 * ```
 */
export function resumeRuntime(options: ResumeOptions): Runtime {
  const image = replayJournal(options.store.loaded, options.store.location);
  const core = new RuntimeCore(options, agentCoreBuilders, image);
  new Restorer(core, image).run();
  return runtimeOf(core);
}

/** A pending call the restored actor does not run again, with what the journal says it returned. */
interface PendingAnswer {
  readonly call: ToolCall;
  /** The result a coordination call had, per the journal; absent for the other calls. */
  readonly journaled?: string;
}

interface Restored {
  readonly agent: AgentImage;
  readonly actor: AnyActorRef;
  readonly dialogue: Dialogue;
  /** Pending tool calls answered after start (interrupted, or waiting on a subagent). */
  readonly answers: readonly PendingAnswer[];
}

class Restorer {
  private readonly heads = new Map<string, SystemConfiguration>();
  private readonly dialogues = new Map<string, Dialogue>();
  /** Per parent: its dialogue at the lengths its subagents' snapshots were taken. */
  private readonly versions = new Map<string, Map<number, Dialogue | undefined>>();
  private readonly byCall = new Map<string, AgentImage>();
  private readonly ended = new Set<string>();
  private readonly restored: Restored[] = [];
  /** Closes the usage accounts of agents that had settled, once every account is open. */
  private readonly closeAccounts: Array<() => void> = [];

  constructor(
    private readonly core: RuntimeCore,
    private readonly image: SessionImage,
  ) {
    const root = core.heads.root();
    this.heads.set(requestHeadHash(root), root);
    for (const agent of image.agents.values()) {
      const { parent, snapshot } = agent.spawn;
      if (parent === null) continue;
      const wanted = this.versions.get(parent) ?? new Map<number, Dialogue | undefined>();
      wanted.set(snapshot.length, undefined);
      this.versions.set(parent, wanted);
      if (snapshot.call !== null) this.byCall.set(`${parent}\n${snapshot.call}`, agent);
    }
  }

  run(): void {
    // A crash before the root's descriptor was written: the session had not started.
    if (this.image.agents.size === 0) return this.core.startRoot();
    for (const agent of this.image.agents.values()) this.restore(agent);
    // Subagents first, so what a settled subagent did not use returns through its settled parent.
    for (const close of [...this.closeAccounts].reverse()) close();
    for (const r of this.restored) r.actor.start();
    for (const r of this.restored) this.listenForFirstReports(r);
    // A cancellation the crash cut short is finished, children first, before anything is
    // delivered: an agent it was cancelling receives no result now.
    for (const cancel of this.image.cancels) {
      if (this.core.registry.get(cancel.path)?.delivered === false) this.core.cancel(cancel.path, cancel.reason);
    }
    // Results owed before the pending calls' answers, as in the run: a subagent's result
    // reaches its parent before the tool call that ended it returns.
    for (const agent of this.image.agents.values()) this.deliverIfOwed(agent);
    for (const r of this.restored) this.deliverTurnIfOwed(r);
    for (const r of this.restored) this.answerPending(r);
  }

  /**
   * Delivers the notice of a turn a subagent ended before the crash when its parent's journal
   * does not hold it (the agent's idle state is journaled before its parent gets the notice).
   */
  private deliverTurnIfOwed(r: Restored): void {
    const { agent } = r;
    const parent = agent.spawn.parent;
    if (parent === null || agent.result || agent.state !== 'running.idle' || agent.turns === 0) return;
    const opener = agent.openedBy;
    if (!opener || opener.kind === 'person' || opener.from !== parent || (opener.kind !== 'task' && opener.kind !== 'message')) return;
    // A caller-delivery subagent's first turn answers the Agent call instead.
    if (agent.turns === 1 && agent.spawn.input['delivery'] === 'caller') return;
    const parentImage = this.image.agents.get(parent);
    const context = r.actor.getSnapshot().context as AgentContext;
    const text = turnNotice({ path: agent.spawn.path, text: context.lastText, turn: agent.turns - 1 });
    const held = (t: string, origin: UserOrigin): boolean => origin.kind === 'notice' && origin.from === agent.spawn.path && t === text;
    if (parentImage?.entries.some((e) => e.kind === 'user' && held(e.text, e.origin)) || parentImage?.queued.some((q) => held(q.text, q.origin))) return;
    this.core.deliverTurnNotice(parent, text, agent.spawn.path);
  }

  private head(hash: string): SystemConfiguration {
    let head = this.heads.get(hash);
    if (!head) {
      head = deepFreeze(structuredClone(this.image.blobs.get(hash))) as SystemConfiguration;
      this.core.heads.adopt(head);
      this.heads.set(hash, head);
    }
    return head;
  }

  private inputOf(agent: AgentImage): AgentInput {
    const { spawn } = agent;
    const { spec, framing: stored, ...rest } = spawn.input as Record<string, unknown> & { spec: ContextSpec | null; framing: AgentInput['framing'] };
    const framing = renamedParent(stored);
    let snapshot: AgentInput['snapshot'];
    if (spawn.parent !== null && spec !== null) {
      const source = this.versions.get(spawn.parent)?.get(spawn.snapshot.length);
      if (!source) throw new RuntimeError('resume_failed', `cannot resume ${spawn.path}: its parent's dialogue never reached the ${spawn.snapshot.length} entries its context was taken from`);
      snapshot = selectSnapshot(source, spec, spawn.snapshot.call !== null ? { triggeringCallId: spawn.snapshot.call } : {});
    }
    const projectContext = spawn.projectContext === null ? undefined : (this.image.blobs.get(spawn.projectContext) as string);
    return agentInput({
      ...(rest as unknown as AgentInput),
      system: this.head(spawn.head),
      snapshot,
      framing: framing?.kind === 'independent' && projectContext !== undefined ? { ...framing, projectContext } : framing,
    });
  }

  /** The agent's full dialogue (seed, then its own entries), keeping the versions its subagents need. */
  private dialogueOf(agent: AgentImage, input: AgentInput, seeded: boolean): Dialogue {
    const wanted = this.versions.get(agent.spawn.path);
    let dialogue = seeded && input.snapshot ? Dialogue.seeded(input.snapshot.entries) : Dialogue.empty();
    const keep = (): void => {
      if (wanted?.has(dialogue.length)) wanted.set(dialogue.length, dialogue);
    };
    keep();
    if (!wanted) return dialogue.appendAll(agent.entries);
    for (const entry of agent.entries) {
      dialogue = dialogue.append(entry);
      keep();
    }
    return dialogue;
  }

  private restore(agent: AgentImage): void {
    const { spawn } = agent;
    const input = this.inputOf(agent);
    const running = agent.state.startsWith('running') || agent.entries.length > 0;
    let dialogue: Dialogue;
    try {
      dialogue = this.dialogueOf(agent, input, running);
    } catch (error) {
      // Entries that cannot follow each other: a record of an older journal (without sequence
      // numbers) was duplicated or moved. The journal is at fault, not the dialogue.
      if (!(error instanceof DialogueError)) throw error;
      throw new StoreError('corrupt_journal', `${this.core.journal?.store.location ?? 'the journal'}: the entries journaled for ${spawn.path} do not form a dialogue (${error.message}); a record was duplicated, lost or moved`, { cause: error });
    }
    this.dialogues.set(spawn.path, dialogue);
    const core = this.core;
    const closeUsage = core.reopenAccount(spawn.path, spawn.parent, input.model, agent.result?.usage ?? agent.usage);
    // Budgets come back from the descriptor (its caps) and what the journal says it spent.
    const closeBudget = core.budgets.restore(input, agent.result?.usage ?? agent.usage);
    const closeAccount = (): void => {
      closeUsage();
      closeBudget();
    };
    if (agent.result) {
      this.ended.add(spawn.path);
      this.closeAccounts.push(closeAccount);
      core.retention.add(agent.result, dialogue);
      return;
    }
    const context = this.contextOf(agent, input, dialogue);
    if (spawn.parent !== null && this.ended.has(spawn.parent)) {
      // Its parent finished before the crash, which cancels every subagent it leaves behind.
      this.ended.add(spawn.path);
      const result = { ...resultOf({ ...context, status: 'cancelled', stopReason: 'cancelled', error: `${spawn.parent} finished` }, input.startedAt), ...core.usageOf(spawn.path) };
      core.journal?.settled(result, dialogue);
      core.retention.add(result, dialogue);
      this.closeAccounts.push(closeAccount);
      return;
    }
    const record =
      spawn.parent === null
        ? core.registry.addRoot(spawn.path, input.startedAt)
        : core.registry.reserve({
            parentPath: spawn.parent,
            name: spawn.path.slice(spawn.parent.length + 1),
            role: input.role,
            contextLabel: input.contextLabel,
            delivery: input.delivery,
            lifetime: input.lifetime,
            task: input.task ?? '',
            now: input.startedAt,
          });
    // Its tool lists and grants as journaled: a resume never widens what it may do.
    if (spawn.parent !== null) restoreAuthority(record, spawn.authority, core.registry.get(spawn.parent));
    const parent = spawn.parent === null ? undefined : core.registry.get(spawn.parent)?.actor;
    const inspect = spawn.parent === null && core.options.inspect ? { inspect: sanitizingObserver(core.options.inspect, (error) => core.reportListenerError(error, 'inspect')) } : {};
    let actor: AnyActorRef;
    let answers: PendingAnswer[] = [];
    if (agent.state.startsWith('running')) {
      const plan = this.planChildren(agent, context);
      answers = plan.answers;
      // A restored running agent gets its subagent supervisor back (stopping it cancels its restored subagents).
      const persisted = { status: 'active', value: stateValueOf(agent.state), context, children: { ...plan.children, subagents: { src: 'superviseSubagents', snapshot: { status: 'active', output: undefined, error: undefined, input: undefined } } }, historyValue: {}, output: undefined, error: undefined };
      actor = createActor(core.logic, { snapshot: persisted as never, input, id: record.actorId, systemId: spawn.path, ...(parent ? { parent } : {}), ...inspect });
      if (spawn.parent !== null) record.phase = 'published';
    } else {
      // Not yet running: start from the input; journaled hook outcomes and backgrounds are replayed.
      actor = createActor(core.logic, { input, id: record.actorId, systemId: spawn.path, ...(parent ? { parent } : {}), ...inspect });
    }
    record.actor = actor;
    // Held by its parent like a spawned subagent, so cancelling or stopping the parent reaches it.
    if (parent) holdSubagent(parent, spawn.path, actor);
    core.watch(record);
    this.restored.push({ agent, actor, dialogue, answers });
  }

  private contextOf(agent: AgentImage, input: AgentInput, dialogue: Dialogue): AgentContext {
    let lastText = '';
    for (let i = agent.entries.length - 1; i >= 0; i--) {
      const entry = agent.entries[i]!;
      if (entry.kind === 'assistant') {
        lastText = entry.text;
        break;
      }
    }
    let inbox = null as InboxQueue;
    for (const item of agent.queued) inbox = { item, next: inbox, size: (inbox?.size ?? 0) + 1 };
    return {
      ...initialAgentContext(input),
      acceptedTask: agent.hookTask ?? input.task,
      background: agent.background?.text,
      dialogue,
      inbox,
      step: agent.step,
      usage: agent.usage,
      lastText,
      closeRequested: agent.close,
      turnsCompleted: agent.turns,
      turnOpenedBy: agent.openedBy,
      // A continuable agent reports each finished turn, so one with turns behind it reported first.
      firstReportMade: agent.turns > 0,
    };
  }

  /** The invoked and spawned actors of a restored state, named by their logic's key. */
  private planChildren(agent: AgentImage, context: AgentContext): { children: Record<string, unknown>; answers: PendingAnswer[] } {
    const path = agent.spawn.path;
    const active = (input: unknown) => ({ status: 'active', output: undefined, error: undefined, input });
    if (agent.state === 'running.working.sampling') {
      const input = sampleInputOf(context);
      return { children: { model: { src: 'sampleModel', snapshot: active(input) } }, answers: [] };
    }
    if (agent.state !== 'running.working.acting') return { children: {}, answers: [] };
    const repeated: ToolCall[] = [];
    const answers: PendingAnswer[] = [];
    const idempotent = new Set(this.core.options.idempotentTools ?? []);
    for (const call of context.dialogue.pendingCalls()) {
      // An Agent call whose spawn never reached the journal had no effect yet: run it again.
      if (call.name === 'Agent') {
        if (this.byCall.has(`${path}\n${call.id}`)) answers.push({ call });
        else repeated.push(call);
        continue;
      }
      // The coordination tools' effects are journaled, so each runs again exactly when it had
      // none yet, and is otherwise answered with what it returned.
      if (COORDINATION_TOOLS.has(call.name)) {
        const journaled = this.journaledOutcome(agent, context, call);
        if (journaled === undefined) repeated.push(call);
        else answers.push({ call, journaled });
        continue;
      }
      // A call that was waiting for approval (or was denied) had not run: it asks again (a
      // journaled denial answers it at once), under the same id and in the same order.
      if (REPEATABLE_BUILTINS.has(call.name) || idempotent.has(call.name) || this.notApproved(path, call.id)) repeated.push(call);
      else answers.push({ call });
    }
    // The step's tool actor runs again with only the calls that may be repeated.
    const children = repeated.length > 0 ? { tools: { src: 'runToolCalls', snapshot: active({ path, calls: repeated }) } } : {};
    return { children, answers };
  }

  /** Whether the journal shows the call asked for approval and was not approved. */
  private notApproved(path: string, callId: string): boolean {
    const asked = this.image.approvals.get(approvalId(path, callId));
    return asked !== undefined && asked.answer?.approved !== true;
  }

  /**
   * What a pending coordination call returned, when the journal shows its effect: a message
   * the target received, a cancellation whose record was written (before anything stopped), a
   * close the target's journal shows. Undefined when it had no effect yet.
   */
  private journaledOutcome(agent: AgentImage, context: AgentContext, call: ToolCall): string | undefined {
    switch (call.name) {
      case 'send_message': {
        const to = this.messageDelivered(agent, context, call);
        return to === undefined ? undefined : canonicalJson({ delivered_to: to, status: 'delivered' });
      }
      case 'cancel_agent': {
        const cancel = this.cancelOf(agent.spawn.path, call.id);
        return cancel === undefined ? undefined : cancelToolContent(cancel.stopped);
      }
      case 'close_agent': {
        const closed = this.closed(call);
        return closed === undefined ? undefined : canonicalJson({ agent_id: closed, status: 'closing' });
      }
      default:
        return undefined;
    }
  }

  /**
   * The target of a pending `send_message` call whose message the journal shows delivered, or
   * undefined when it was not (then it is sent again). Delivery is told by counting: the target
   * received more such messages from this sender than the sender's answered calls account for.
   */
  private messageDelivered(sender: AgentImage, context: AgentContext, call: ToolCall): string | undefined {
    const args = call.arguments as { readonly agent_id?: unknown; readonly message?: unknown } | null;
    if (typeof args?.agent_id !== 'string' || typeof args.message !== 'string' || !args.agent_id.startsWith('/')) return undefined;
    const to = args.agent_id.replace(/\/+$/, '');
    const from = sender.spawn.path;
    const target = this.image.agents.get(to);
    if (!target) return undefined;
    const same = (text: string, origin: UserOrigin): boolean => origin.kind === 'message' && origin.from === from && text === args.message;
    let received = 0;
    for (const entry of target.entries) if (entry.kind === 'user' && same(entry.text, entry.origin)) received++;
    for (const item of target.queued) if (same(item.text, item.origin)) received++;
    const pending = new Set(context.dialogue.pendingCalls().map((c) => c.id));
    let answered = 0;
    for (const entry of context.dialogue.log) {
      if (entry.kind !== 'assistant') continue;
      for (const c of entry.toolCalls) {
        const a = c.arguments as { readonly agent_id?: unknown; readonly message?: unknown } | null;
        if (c.name === 'send_message' && !pending.has(c.id) && a?.agent_id === args.agent_id && a.message === args.message) answered++;
      }
    }
    return received > answered ? to : undefined;
  }

  /** The target of a pending `close_agent` call when the journal shows it closing or ended. */
  private closed(call: ToolCall): string | undefined {
    const id = (call.arguments as { readonly agent_id?: unknown } | null)?.agent_id;
    if (typeof id !== 'string' || !id.startsWith('/')) return undefined;
    const to = id.replace(/\/+$/, '');
    const target = this.image.agents.get(to);
    return target && (target.close || target.result) ? to : undefined;
  }

  /** The journaled cancellation `by`'s call `callId` began, if any. */
  private cancelOf(by: string, callId: string): CancelRecord | undefined {
    return this.image.cancels.find((c) => c.call?.by === by && c.call.callId === callId);
  }

  /** Answers the pending calls the restored actor does not run again. */
  private answerPending(r: Restored): void {
    const path = r.agent.spawn.path;
    for (const { call, journaled } of r.answers) {
      const child = call.name === 'Agent' ? this.byCall.get(`${path}\n${call.id}`) : undefined;
      if (journaled !== undefined) {
        r.actor.send({ type: 'tool.result', callId: call.id, toolName: call.name, content: journaled, isError: false });
      } else if (!child) {
        const content = `Error (interrupted): the session stopped while this "${call.name}" call was running, so whether it took effect is unknown; check before repeating it.`;
        r.actor.send({ type: 'tool.result', callId: call.id, toolName: call.name, content, isError: true });
      } else if (child.spawn.input['delivery'] === 'parent') {
        const input = child.spawn.input;
        const role = typeof input['role'] === 'string' ? input['role'] : undefined;
        const receipt = { path: child.spawn.path, role, context: String(input['contextLabel']), lifetime: String(input['lifetime']), sessionId: String(input['sessionId']), treeId: this.core.sessionId };
        const content = receiptToolContent(receipt, this.core.resultMetadata);
        r.actor.send({ type: 'tool.result', callId: call.id, toolName: 'Agent', content, isError: false });
      }
      // A caller-delivery subagent answers through its first report (listenForFirstReports);
      // a settled one's result is delivered by deliverIfOwed.
    }
  }

  /** Live caller-delivery subagents will answer their parents' pending Agent calls. */
  private listenForFirstReports(r: Restored): void {
    const path = r.agent.spawn.path;
    for (const { call } of r.answers) {
      const child = call.name === 'Agent' ? this.byCall.get(`${path}\n${call.id}`) : undefined;
      if (child && child.spawn.input['delivery'] !== 'parent' && !child.result) this.answerOwedFirstTurn(r.actor, child, call.id);
    }
  }

  /**
   * A caller-delivery subagent answers its parent's waiting `Agent` call with its first report:
   * one still working does so through its machine, as a live one does; one whose first turn
   * ended before the crash answers here.
   */
  private answerOwedFirstTurn(parent: AnyActorRef, child: AgentImage, callId: string): void {
    const path = child.spawn.path;
    const record = this.core.registry.get(path);
    if (!record) return;
    const parentPath = child.spawn.parent;
    const answer = (content: string, isError: boolean): void => {
      // A parent that finished meanwhile (a cascade cancelled it) takes no answer.
      if (parentPath === null || this.core.registry.get(parentPath)?.delivered !== false) return;
      parent.send({ type: 'tool.result', callId, toolName: 'Agent', content, isError });
    };
    if (child.state === 'running.idle' && child.turns > 0) {
      const text = this.restored.find((r) => r.agent === child)?.actor.getSnapshot().context.lastText ?? '';
      answer(firstTurnToolContent({ path, text, turn: child.turns - 1 }), false);
    }
  }

  /** Delivers a result the journal shows settled but not delivered, exactly once. */
  private deliverIfOwed(agent: AgentImage): void {
    const { result, spawn } = agent;
    if (!result || agent.delivered || spawn.parent === null) return;
    const parent = this.core.registry.get(spawn.parent);
    if (!parent?.actor || parent.phase !== 'published') return;
    const call = spawn.snapshot.call;
    const pending = call !== null && (parent.actor.getSnapshot() as { context: AgentContext }).context.dialogue.pendingCalls().some((c) => c.id === call);
    if (pending && spawn.input['delivery'] !== 'parent') {
      const outcome = this.core.presenter.callResult({ kind: 'result', result });
      parent.actor.send({ type: 'tool.result', callId: call, toolName: 'Agent', content: outcome.content, isError: outcome.isError });
    } else {
      this.core.deliverNotice(spawn.parent, result);
    }
  }
}

/** `running.working.sampling` → `{ running: { working: 'sampling' } }`. */
function stateValueOf(state: string): unknown {
  const parts = state.split('.');
  let value: unknown = parts.pop();
  while (parts.length > 0) value = { [parts.pop()!]: value };
  return value;
}

/** A task framing journaled before `parentId` was renamed `parentPath` reads as the new shape. */
function renamedParent(framing: AgentInput['framing']): AgentInput['framing'] {
  if (framing === undefined || !Object.hasOwn(framing, 'parentId')) return framing;
  const { parentId, ...rest } = framing as typeof framing & { parentId: string };
  return { ...rest, parentPath: parentId } as AgentInput['framing'];
}

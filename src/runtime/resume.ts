/**
 * `resumeRuntime`: rebuilds a session from its journal after a crash or on another node.
 *
 * Every agent comes back as the journal left it:
 * - settled agents as results (and final dialogues); a result whose delivery the journal
 *   does not show is delivered now, once; one it shows is never delivered again;
 * - agents waiting on the model, running tools or idle as restored actors in the same phase
 *   (`restoreAgent`, which owns the mapping to the machine's states), with the same dialogue,
 *   inbox, counters and request head (so an idle continuable subagent's next request head is byte for
 *   byte the one it would have sent). One waiting on the model sends that request again; one
 *   running tool calls gets back the results the journal holds, re-runs calls that are safe to
 *   repeat, and gets an "interrupted" error result for the others;
 * - agents still reserved or preparing a summary start again from their input: journaled
 *   hook outcomes and backgrounds are replayed, not produced again;
 * - agents whose parent had already finished are cancelled, as they would have been.
 *
 * This file names no state and no invoked actor: the journal's facts become an agent image, and
 * the machine's own `restoreAgent` turns the image into an actor.
 */
import type { AnyActorRef } from 'xstate';
import { AGENT_IMAGE_VERSION, PHASE_COMEBACK, restoreAgent, restoredContext, type AgentImage } from '../../machines/agent.image.js';
import { holdSubagent } from '../../machines/subagents.js';
import type { AgentContext, AgentInput } from '../../machines/agent.types.js';
import { agentInput } from '../../machines/agent.input.js';
import { resultOf } from '../../machines/agent.machine.js';
import { firstTurnToolContent, receiptToolContent, turnNotice } from '../../machines/subagent-reports.js';
import { selectSnapshot } from '../context/select.js';
import type { ContextSpec } from '../context/types.js';
import { Dialogue } from '../dialogue/dialogue.js';
import { DialogueError } from '../dialogue/errors.js';
import type { UserOrigin } from '../dialogue/entry.js';
import { deepFreeze } from '../dialogue/freeze.js';
import { requestHeadHash } from '../request/serialize.js';
import type { SystemConfiguration } from '../request/types.js';
import { replayJournal, type JournaledAgent, type SessionImage } from '../store/replay.js';
import { StoreError, type SessionStore } from '../store/types.js';
import { RuntimeCore, sanitizingObserver } from './core.js';
import { agentCoreBuilders } from './agent-logic.js';
import { approvalId } from './approvals.js';
import { restoreAuthority } from './authority.js';
import type { CoreBuilders } from './core-builders.js';
import { RuntimeError } from './errors.js';
import { planPendingCalls, type PendingAnswer, type PendingFacts } from './resume-calls.js';
import { runtimeOf } from './runtime.js';
import type { Runtime, RuntimeOptions } from './types.js';

/** Options of {@link resumeRuntime}: the runtime's options, with the store to resume from. */
export type ResumeOptions = RuntimeOptions & { readonly store: SessionStore };

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
  return resumeWith(options, agentCoreBuilders);
}

/** {@link resumeRuntime} with the machine and its actors built by `builders` (tests restore into a renamed copy). */
export function resumeWith(options: ResumeOptions, builders: CoreBuilders<RuntimeCore>): Runtime {
  const image = replayJournal(options.store.loaded, options.store.location);
  const core = new RuntimeCore(options, builders, image);
  new Restorer(core, image).run();
  return runtimeOf(core);
}

interface Restored {
  readonly agent: JournaledAgent;
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
  private readonly byCall = new Map<string, JournaledAgent>();
  private readonly ended = new Set<string>();
  private readonly restored: Restored[] = [];
  /** Closes the usage accounts of agents that had settled, once every account is open. */
  private readonly closeAccounts: Array<() => void> = [];

  constructor(
    private readonly core: RuntimeCore,
    private readonly image: SessionImage,
  ) {
    const root = core.config.heads.root();
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
      if (this.core.registry.get(cancel.path)?.delivered === false) this.core.lifecycle.cancel(cancel.path, cancel.reason);
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
    if (parent === null || agent.result || agent.phase !== 'idle' || agent.turns === 0) return;
    const opener = agent.openedBy;
    if (!opener || opener.kind === 'person' || opener.from !== parent || (opener.kind !== 'task' && opener.kind !== 'message')) return;
    // A caller-delivery subagent's first turn answers the Agent call instead.
    if (agent.turns === 1 && agent.spawn.input['delivery'] === 'caller') return;
    const parentImage = this.image.agents.get(parent);
    const context = r.actor.getSnapshot().context as AgentContext;
    const text = turnNotice({ path: agent.spawn.path, text: context.lastText, turn: agent.turns - 1 });
    const held = (t: string, origin: UserOrigin): boolean => origin.kind === 'notice' && origin.from === agent.spawn.path && t === text;
    if (parentImage?.entries.some((e) => e.kind === 'user' && held(e.text, e.origin)) || parentImage?.queued.some((q) => held(q.text, q.origin))) return;
    this.core.router.deliverTurnNotice(parent, text, agent.spawn.path);
  }

  private head(hash: string): SystemConfiguration {
    let head = this.heads.get(hash);
    if (!head) {
      head = deepFreeze(structuredClone(this.image.blobs.get(hash))) as SystemConfiguration;
      this.core.config.heads.adopt(head);
      this.heads.set(hash, head);
    }
    return head;
  }

  private inputOf(agent: JournaledAgent): AgentInput {
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
  private dialogueOf(agent: JournaledAgent, input: AgentInput, seeded: boolean): Dialogue {
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

  private restore(agent: JournaledAgent): void {
    const { spawn } = agent;
    const input = this.inputOf(agent);
    const live = PHASE_COMEBACK[agent.phase] === 'in-state';
    let dialogue: Dialogue;
    try {
      dialogue = this.dialogueOf(agent, input, live || agent.entries.length > 0);
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
    const plan = agent.phase === 'running_tools' ? planPendingCalls(this.image, agent, dialogue, this.factsFor(spawn.path)) : { rerun: [], answers: [] };
    const image: AgentImage = {
      version: AGENT_IMAGE_VERSION,
      phase: agent.phase,
      dialogue,
      inbox: agent.queued,
      counters: { step: agent.step, usage: agent.usage, turns: agent.turns, closeRequested: agent.close, firstReportMade: agent.reported },
      acceptedTask: agent.hookTask ?? input.task,
      background: agent.background?.text,
      turnOpenedBy: agent.openedBy,
      rerun: plan.rerun,
    };
    if (spawn.parent !== null && this.ended.has(spawn.parent)) {
      // Its parent finished before the crash, which cancels every subagent it leaves behind.
      this.ended.add(spawn.path);
      const context = restoredContext(input, image);
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
    const inspect = spawn.parent === null && core.config.inspect ? { inspect: sanitizingObserver(core.config.inspect, (error) => core.events.reportListenerError(error, 'inspect')) } : {};
    // Not yet running: the machine starts it again from its input (journaled hook outcomes and
    // backgrounds are replayed). Running: back in its phase, with a subagent supervisor whose
    // stopping cancels its restored subagents.
    const actor: AnyActorRef = restoreAgent(core.logic, image, { input, id: record.actorId, systemId: spawn.path, ...(parent ? { parent } : {}), ...inspect });
    if (live && spawn.parent !== null) record.phase = 'published';
    record.actor = actor;
    // Held by its parent like a spawned subagent, so cancelling or stopping the parent reaches it.
    if (parent) holdSubagent(parent, spawn.path, actor);
    core.lifecycle.watch(record);
    this.restored.push({ agent, actor, dialogue, answers: plan.answers });
  }

  /** What the rest of the journal says about the pending calls of `path`. */
  private factsFor(path: string): PendingFacts {
    return {
      spawned: (callId) => this.byCall.has(`${path}\n${callId}`),
      notApproved: (callId) => {
        const asked = this.image.approvals.get(approvalId(path, callId));
        return asked !== undefined && asked.answer?.approved !== true;
      },
      idempotent: new Set(this.core.config.idempotentTools ?? []),
    };
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
        const receipt = { path: child.spawn.path, role, context: String(input['contextLabel']), lifetime: String(input['lifetime']), sessionId: String(input['sessionId']), treeId: this.core.config.sessionId };
        const content = receiptToolContent(receipt, this.core.config.resultMetadata);
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
  private answerOwedFirstTurn(parent: AnyActorRef, child: JournaledAgent, callId: string): void {
    const path = child.spawn.path;
    const record = this.core.registry.get(path);
    if (!record) return;
    const parentPath = child.spawn.parent;
    const answer = (content: string, isError: boolean): void => {
      // A parent that finished meanwhile (a cascade cancelled it) takes no answer.
      if (parentPath === null || this.core.registry.get(parentPath)?.delivered !== false) return;
      parent.send({ type: 'tool.result', callId, toolName: 'Agent', content, isError });
    };
    if (child.phase === 'idle' && child.reported) {
      const text = this.restored.find((r) => r.agent === child)?.actor.getSnapshot().context.lastText ?? '';
      answer(firstTurnToolContent({ path, text, turn: child.turns - 1 }), false);
    }
  }

  /** Delivers a result the journal shows settled but not delivered, exactly once. */
  private deliverIfOwed(agent: JournaledAgent): void {
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
      this.core.router.deliverNotice(spawn.parent, result);
    }
  }
}

/** A task framing journaled before `parentId` was renamed `parentPath` reads as the new shape. */
function renamedParent(framing: AgentInput['framing']): AgentInput['framing'] {
  if (framing === undefined || !Object.hasOwn(framing, 'parentId')) return framing;
  const { parentId, ...rest } = framing as typeof framing & { parentId: string };
  return { ...rest, parentPath: parentId } as AgentInput['framing'];
}

/**
 * The router: messages between agents (checked against the directory, as in every host),
 * prompts and inbox notices, closing and compacting, and the hand-over to a root whose loop
 * the host runs (its messages and its subagents' reports go to the host).
 */
import type { AnyActorRef } from 'xstate';
import type { AgentResult, SubagentReportEvent } from '../../machines/agent.types.js';
import { addressable, agentPathOf, messageTarget, type CoordinationPort, type CoordinationRefusal } from '../../machines/coordination.js';
import type { ReportPresenter } from '../../machines/subagent-reports.js';
import type { Attachment } from '../dialogue/entry.js';
import type { DialogueView } from '../dialogue/types.js';
import type { Compaction } from './core-builders.js';
import type { RuntimeConfig } from './config.js';
import type { Directory } from './directory.js';
import { RuntimeError } from './errors.js';
import { ROOT_PATH } from './paths.js';
import type { AgentRecord, Registry } from './registry.js';
import type { TurnWaiters } from './turns.js';
import type { PromptOptions, TurnOutcome } from './types.js';

/** What the router works with. */
export interface RouterDeps {
  readonly registry: Registry;
  readonly directory: Directory;
  /** The checks every host makes (machines/coordination.ts) run against this port. */
  readonly coordination: CoordinationPort;
  readonly hostRoot: RuntimeConfig['hostRoot'];
  readonly presenter: ReportPresenter;
  readonly turns: TurnWaiters;
  /** Throws when the session no longer takes work. */
  assertRunning(): void;
  /** Cancels the turn in progress of `path` (the lifecycle's, one owner of cancellation); the prompts waiting on it note what it stopped. */
  cancelTurn(path: string, reason: string, affected: (child: string) => boolean): void;
  /** Whether the agent at `path` is doing work. */
  isBusy(path: string): boolean;
  /** Writes a compaction of an agent's dialogue. */
  compact(path: string, dialogue: DialogueView, signal: AbortSignal): Promise<Compaction | undefined>;
}

/** Routes messages, prompts and notices of one runtime. */
export class Router {
  constructor(private readonly deps: RouterDeps) {}

  /**
   * Takes the reports of a host-run root's subagents (its loop is the host's, so its machine
   * must not open a turn): a first report answers the host's `Agent` call, which awaits the
   * spawn's `firstReport`; every other goes to the host as a notice.
   */
  handOverToHost(event: SubagentReportEvent): boolean {
    if (!this.hostRuns(event.from.slice(0, event.from.lastIndexOf('/')))) return false;
    if (event.callId === null) this.deps.hostRoot?.deliver({ text: this.deps.presenter.notice(event.report), origin: { kind: 'notice', from: event.from } });
    return true;
  }

  /** Delivers a turn notice to a parent's inbox (resume: once, if owed). */
  deliverTurnNotice(parentPath: string, text: string, from: string): void {
    this.deliverToInbox(parentPath, text, from);
  }

  /** Delivers a settled subagent's result to its parent's inbox (resume: once, if owed). */
  deliverNotice(parentPath: string, result: AgentResult): void {
    this.deliverToInbox(parentPath, this.deps.presenter.notice({ kind: 'result', result }), result.path);
  }

  private deliverToInbox(to: string, text: string, from: string): void {
    if (this.hostRuns(to)) return this.deps.hostRoot?.deliver({ text, origin: { kind: 'notice', from } });
    const target = this.deps.registry.get(to);
    if (!target?.actor || target.phase !== 'published') return;
    target.actor.send({ type: 'inbox', item: { text, origin: { kind: 'notice', from } } });
  }

  /** Normalizes an agent id: agent ids are paths (`/root/research`), as the tools require. */
  resolveTarget(id: string): string {
    return unrefused(agentPathOf(id));
  }

  /** Explains why `path` cannot take messages, or returns its live record. */
  private addressable(path: string): AgentRecord & { actor: AnyActorRef } {
    const refusal = addressable(this.deps.coordination, path);
    if (refusal) throw new RuntimeError(refusal.code, refusal.message);
    return this.deps.registry.get(path) as AgentRecord & { actor: AnyActorRef };
  }

  /** Routes a message through the directory (the checks every host makes); returns the path it was delivered to. */
  send(from: string, to: string, message: string): string {
    this.deps.assertRunning();
    const path = unrefused(messageTarget(this.deps.coordination, from, to, message));
    this.deliverMessage(from, path, message);
    return path;
  }

  /**
   * Hands a checked message to the addressable agent at `to`: to the host for a root it
   * runs, else through the sender's actor, which relays it (so inspection shows who sent
   * it); a sender without a live actor (the host speaking for a finished agent) sends directly.
   */
  deliverMessage(from: string, to: string, message: string): void {
    if (this.hostRuns(to)) {
      this.deps.hostRoot?.deliver({ text: message, origin: { kind: 'message', from } });
      return;
    }
    const event = { type: 'send_message', from, to, message } as const;
    const sender = this.deps.registry.get(from)?.actor;
    if (sender && !this.hostRuns(from) && sender.getSnapshot().status === 'active') sender.send(event);
    else this.deps.registry.get(to)?.actor?.send(event);
  }

  /** Whether the host runs this agent's loop (the root, with a {@link HostRoot}). */
  hostRuns(path: string): boolean {
    return path === ROOT_PATH && this.deps.hostRoot !== undefined;
  }

  /** The dialogue subagents of `path` are snapshotted from: the host's, for a host-run root. */
  snapshotSource(path: string): DialogueView {
    const host = this.hostRuns(path) ? this.deps.hostRoot?.dialogue() : undefined;
    return host ?? this.deps.directory.contextOf(path).dialogue;
  }

  /**
   * A person's message to an agent (the root by default). Resolves when the turn that answers
   * it ends; rejects only for bad input (nothing is sent then). Aborting `signal` cancels
   * that turn: the subagents it started (and any still working) are cancelled, children
   * first, and the agent goes idle (a one-shot agent is cancelled).
   */
  prompt(text: string, options: PromptOptions = {}): Promise<TurnOutcome> {
    try {
      this.deps.assertRunning();
      if (typeof text !== 'string' || text.trim() === '') throw new RuntimeError('invalid_arguments', 'a prompt must be a non-empty string');
      const attachments = checkAttachments(options.attachments);
      const path = options.to === undefined ? ROOT_PATH : this.resolveTarget(options.to);
      if (this.hostRuns(path)) throw new RuntimeError('not_permitted', "the host runs the root agent's loop (hostRoot): prompt the root through the host");
      const record = this.addressable(path);
      const signal = options.signal;
      if (signal?.aborted) throw new RuntimeError('aborted', `the prompt to ${path} was aborted before it was sent`);
      const { outcome, waiter } = this.deps.turns.wait(path);
      // A halt rejects it with the store's error; a host that never awaits it must not crash on that.
      outcome.catch(() => {});
      if (signal) {
        const before = new Set(record.children);
        const onAbort = (): void => this.deps.cancelTurn(path, abortReason(signal), (child) => !before.has(child) || this.deps.isBusy(child));
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.detach = () => signal.removeEventListener('abort', onAbort);
      }
      record.actor.send({ type: 'inbox', item: { text, origin: { kind: 'person' }, ...(attachments ? { attachments } : {}) } });
      return outcome;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Closes a continuable agent: now when idle, at the end of its turn when working. */
  close(path: string): void {
    this.addressable(path).actor.send({ type: 'close' });
  }

  /** Compacts an idle agent now, or marks a working one to compact before its next request. */
  async compact(path: string): Promise<void> {
    const record = this.addressable(path);
    if (this.deps.directory.metaOf(path)?.phase !== 'idle') {
      record.compactRequested = true;
      return;
    }
    const dialogue = this.deps.directory.contextOf(path).dialogue;
    const compaction = await this.deps.compact(path, dialogue, new AbortController().signal);
    // If a turn ran while the summary was written, the agent refuses it (basedOn differs).
    if (compaction && this.deps.registry.get(path) === record) {
      record.actor.send({ type: 'compaction.apply', entry: compaction.entry, basedOn: dialogue.length, usage: compaction.usage });
    }
  }
}

/** The value of a check, or the check's refusal thrown as a RuntimeError. */
function unrefused<T>(checked: T | CoordinationRefusal): T {
  if (typeof checked === 'object' && checked !== null && 'code' in checked && 'message' in checked) {
    const refusal = checked as CoordinationRefusal;
    throw new RuntimeError(refusal.code, refusal.message);
  }
  return checked as T;
}

/** Validates prompt attachments: each a `{ name, content }` pair of strings. */
function checkAttachments(attachments: readonly Attachment[] | undefined): readonly Attachment[] | undefined {
  if (attachments === undefined) return undefined;
  if (!Array.isArray(attachments)) throw new RuntimeError('invalid_arguments', 'attachments must be an array of { name, content } objects');
  for (const a of attachments as readonly unknown[]) {
    const ok = a !== null && typeof a === 'object' && typeof (a as Attachment).name === 'string' && typeof (a as Attachment).content === 'string';
    if (!ok) throw new RuntimeError('invalid_arguments', `each attachment must be { name: string, content: string } (got ${JSON.stringify(a)})`);
  }
  return attachments.length > 0 ? Object.freeze(attachments.map((a) => Object.freeze({ name: a.name, content: a.content }))) : undefined;
}

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return `cancelled by the host: ${reason.message}`;
  return typeof reason === 'string' && reason !== '' ? reason : 'cancelled by the host';
}

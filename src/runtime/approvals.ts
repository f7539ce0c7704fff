/**
 * The session's approval desk: every call that needs the host's approval is a request here,
 * listed in the order it was made, answered exactly once (by the `approve` callback, by the
 * host through `runtime.answerApproval`, or from the journal after a resume) or withdrawn
 * when its agent or turn is cancelled. Requests and answers are journaled, so a crash leaves
 * a pending request pending again after the resume, under the same id and in the same order.
 */
import type { SessionJournal } from '../store/journal.js';
import type { ApprovalAnswerRecord } from '../store/records.js';
import type { JournaledApproval } from '../store/replay.js';
import { errorText } from '../dialogue/error-text.js';
import { RuntimeError } from './errors.js';
import { checkApprovalOptions, describeRule } from './approval-rules.js';
import { checkDecision } from './host-decision.js';
import type { ApprovalAnswer, ApprovalCallback, ApprovalDecision, ApprovalRequest, ApprovalRule } from './types.js';

/** What the desk needs from the runtime. */
export interface ApprovalDeskOptions {
  readonly approve: ApprovalCallback | 'queue' | undefined;
  /** The host's approval rules, checked here when the runtime starts. */
  readonly rules: unknown;
  readonly journal: SessionJournal | undefined;
  /** Requests the journal holds (a resumed session's). */
  readonly journaled: ReadonlyMap<string, JournaledApproval> | undefined;
  readonly requested: (request: ApprovalRequest) => void;
  readonly answered: (answer: ApprovalAnswer) => void;
}

/** What asking takes: the request without its id and place in the order. */
export type ApprovalAsk = Omit<ApprovalRequest, 'id' | 'seq'>;

/** An answer as the waiting call gets it: a failing callback is not a decision. */
type Settled = ApprovalAnswer & { readonly failed?: boolean };

interface Pending {
  readonly request: ApprovalRequest;
  readonly settle: (answer: Settled) => void;
}

/** The id of the request a call makes: stable across a resume. */
export function approvalId(path: string, callId: string): string {
  return `${path}#${callId}`;
}

/** The session's approval requests. */
export class ApprovalDesk {
  private readonly pending = new Map<string, Pending>();
  private seq = 0;

  constructor(private readonly options: ApprovalDeskOptions) {
    checkApprovalOptions(options.approve, options.rules);
    for (const { request } of options.journaled?.values() ?? []) this.seq = Math.max(this.seq, request.order);
  }

  /** Pending requests, in the order they were made. */
  list(): readonly ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request).sort((a, b) => a.seq - b.seq);
  }

  /** How many requests wait (for leak checks). */
  get size(): number {
    return this.pending.size;
  }

  /**
   * Asks for approval; resolves with the decision (see {@link deniedError} for a denial's
   * words), rejects with a RuntimeError when nobody can answer or the callback fails, and
   * with the abort's reason when `signal` aborts first (the request is withdrawn).
   */
  async ask(ask: ApprovalAsk, signal: AbortSignal): Promise<{ readonly approved: boolean; readonly reason?: string }> {
    signal.throwIfAborted();
    const approve = this.options.approve;
    const rule = describeRule(ask.rule);
    if (approve === undefined) throw new RuntimeError('approval_denied', `${ask.toolName} needs the host's approval (${rule}) and no approver is configured`);
    const id = approvalId(ask.path, ask.callId);
    if (this.pending.has(id)) throw new RuntimeError('approval_failed', `call ${ask.callId} of ${ask.path} is already waiting for approval`);
    const journaled = this.options.journaled?.get(id);
    if (journaled?.answer && journaled.answer.by !== 'withdrawn') {
      if (journaled.answer.by === 'failed') throw new RuntimeError('approval_failed', `asking the host to approve ${ask.toolName} failed: ${journaled.answer.reason ?? ''}`);
      return decisionOf(journaled.answer);
    }
    const request: ApprovalRequest = Object.freeze({ ...ask, id, seq: journaled?.request.order ?? ++this.seq });
    let settle!: (answer: Settled) => void;
    const answered = new Promise<Settled>((resolve) => (settle = resolve));
    if (!journaled) {
      const { seq, ...rest } = request;
      this.options.journal?.approval({ type: 'approval', ...rest, order: seq, role: request.role ?? null, args: request.args ?? null, rule: { ...request.rule } });
    }
    this.pending.set(id, { request, settle });
    const onAbort = (): void => this.settle(id, { approved: false, reason: 'withdrawn: the call was cancelled', by: 'withdrawn' });
    signal.addEventListener('abort', onAbort, { once: true });
    this.options.requested(request);
    if (typeof approve === 'function') this.askCallback(approve, request, signal);
    try {
      const answer = await answered;
      if (answer.by === 'withdrawn') throw signal.reason instanceof Error ? signal.reason : new RuntimeError('aborted', `the approval of ${ask.toolName} was withdrawn`);
      if (answer.failed) throw new RuntimeError('approval_failed', `asking the host to approve ${ask.toolName} failed: ${answer.reason ?? ''}`);
      return decisionOf(answer);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** The host's answer through `runtime.answerApproval`. */
  answer(id: string, decision: ApprovalDecision): void {
    if (typeof id !== 'string' || !this.pending.has(id)) {
      throw new RuntimeError('unknown_approval', `no approval request ${JSON.stringify(id)} is pending; pending: ${this.list().map((r) => r.id).join(', ') || 'none'}`);
    }
    const checked = checkDecision(decision, 'an approval decision');
    this.settle(id, { ...checked, by: 'host' });
  }

  private askCallback(approve: ApprovalCallback, request: ApprovalRequest, signal: AbortSignal): void {
    let reply: ApprovalDecision | Promise<ApprovalDecision>;
    try {
      reply = approve(request, signal);
    } catch (error) {
      reply = Promise.reject(error);
    }
    Promise.resolve(reply).then(
      (decision) => {
        let checked: { approved: boolean; reason?: string };
        try {
          checked = checkDecision(decision, 'an approval decision');
        } catch (error) {
          return this.settle(request.id, { approved: false, reason: errorText(error), by: 'callback', failed: true });
        }
        this.settle(request.id, { ...checked, by: 'callback' });
      },
      (error: unknown) => this.settle(request.id, { approved: false, reason: errorText(error), by: 'callback', failed: true }),
    );
  }

  /** Ends a request once: the first answer wins; later ones find nothing pending. */
  private settle(id: string, answer: { approved: boolean; reason?: string; by: ApprovalAnswer['by']; failed?: boolean }): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    const { request } = pending;
    const record: ApprovalAnswerRecord = {
      type: 'approval-answer',
      id,
      path: request.path,
      approved: answer.approved,
      ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
      by: answer.failed ? 'failed' : answer.by === 'journal' ? 'host' : answer.by,
    };
    this.options.journal?.approval(record);
    const event: ApprovalAnswer = { id, path: request.path, callId: request.callId, approved: answer.approved, ...(answer.reason !== undefined ? { reason: answer.reason } : {}), by: answer.by };
    this.options.answered(event);
    pending.settle({ ...event, ...(answer.failed ? { failed: true } : {}) });
  }
}

function decisionOf(answer: { readonly approved: boolean; readonly reason?: string | undefined }): { readonly approved: boolean; readonly reason?: string } {
  return answer.reason === undefined ? { approved: answer.approved } : { approved: answer.approved, reason: answer.reason };
}

/** The tool error a denied call gets: the model reads which rule asked, and the host's reason. */
export function deniedError(toolName: string, rule: ApprovalRule, reason: string | undefined): RuntimeError {
  return new RuntimeError('approval_denied', `the host denied this call of ${toolName}, which needed approval (${describeRule(rule)})${reason ? `: ${reason}` : ''}`);
}

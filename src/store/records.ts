/**
 * The records a session journal holds, after its `session` header. Each fact is written
 * once: a dialogue entry when it is appended, a shared value (a request head, the project
 * context) once as a `blob` that descriptors name by hash, and a fork's copied entries not at
 * all: its descriptor names the parent and the parent's dialogue length they were taken at.
 */
import type { AgentPhase } from '../../machines/agent.meta.js';
import type { AgentResult, InboxItem } from '../../machines/agent.types.js';
import type { Entry, UserOrigin } from '../dialogue/entry.js';
import type { Usage } from '../model/adapter.js';
import type { PermissionMode } from '../policy/permission-mode.js';

/** A value several descriptors share, written once. */
export interface BlobRecord {
  readonly type: 'blob';
  readonly hash: string;
  readonly value: unknown;
}

/** Where a subagent's seeded entries come from: its parent's dialogue at `length`. */
export interface SnapshotRef {
  readonly length: number;
  /** The Agent call that spawned it (never part of the snapshot), or null for host spawns. */
  readonly call: string | null;
}

/**
 * An agent's descriptor, written when it is reserved: who it is, its request head (by hash)
 * with its preset and tool filter, its persona, and the rest of its immutable input.
 */
export interface SpawnRecord {
  readonly type: 'spawn';
  readonly path: string;
  readonly parent: string | null;
  readonly sessionId: string;
  readonly role: string | null;
  readonly preset: string;
  /** Hash of the system configuration (a `blob` record holds it). */
  readonly head: string;
  /** The tools the head offers, and those its filter removed. */
  readonly tools: { readonly allowed: readonly string[]; readonly removed: readonly string[] };
  /** The role instructions the agent runs under, if any. */
  readonly persona: string | null;
  readonly snapshot: SnapshotRef;
  /** Hash of the project context its task framing carries (a `blob`), if any. */
  readonly projectContext: string | null;
  /** The rest of the agent's input, as JSON (head, snapshot and project context by reference). */
  readonly input: { readonly [key: string]: unknown };
  /**
   * Its `invoke_agent` span, when the session was traced: a resumed session's spans continue
   * this trace (W3C trace-context ids, hex).
   */
  readonly trace?: { readonly traceId: string; readonly spanId: string; readonly traceFlags: number };
  /**
   * A subagent's authority beyond its head: the tool lists governing its calls, its permission
   * mode, and what the host granted it at spawn. Restored on resume (never widened).
   */
  readonly authority?: {
    readonly permissions: readonly { readonly label: string; readonly allow?: readonly string[]; readonly deny?: readonly string[] }[];
    readonly permissionMode?: PermissionMode;
    readonly grants?: { readonly externalDirectories: readonly string[]; readonly inheritsExtensions: boolean };
  };
}

/**
 * What changed in one agent between two of its snapshots: its phase, the entries appended,
 * inbox items queued while it worked, and the counters and facts that changed. Facts, not the
 * machine's context: no state name, no actor id, nothing a renamed machine would read otherwise.
 */
export interface AdvanceRecord {
  readonly type: 'advance';
  readonly path: string;
  /** Its phase after the transition. Formats 1 to 3 wrote `state`, a state name, instead. */
  readonly phase: AgentPhase;
  readonly entries?: readonly Entry[];
  readonly queued?: readonly InboxItem[];
  readonly usage?: Usage;
  readonly step?: number;
  readonly turns?: number;
  readonly close?: boolean;
  readonly openedBy?: UserOrigin | null;
  /** Written once, when the agent made its first report (format 4). */
  readonly reported?: true;
}

/** The task hooks allowed the spawn, with this (possibly rewritten) task. */
export interface HookRecord {
  readonly type: 'hook';
  readonly path: string;
  readonly task: string;
}

/** The generated background, on the subagent's record only. */
export interface BackgroundRecord {
  readonly type: 'background';
  readonly path: string;
  readonly text: string;
  readonly usage: Usage;
}

/** An agent's one result with the entries its last transition appended (written before it is delivered). */
export interface ResultRecord {
  readonly type: 'result';
  readonly path: string;
  readonly result: AgentResult;
  readonly entries?: readonly Entry[];
}

/** The agent's path and slot were released. */
export interface ReleaseRecord {
  readonly type: 'release';
  readonly path: string;
}

/**
 * A cancellation began: written before its first agent is cancelled, so a resume finishes a
 * cascade a crash cut short (children first, as it had begun), and answers the `cancel_agent`
 * call that started it with the report it had.
 */
export interface CancelRecord {
  readonly type: 'cancel';
  /** The top of the cancelled subtree. */
  readonly path: string;
  readonly reason?: string;
  /** What the cancellation stopped, children before parents, with the state each was in. */
  readonly stopped: readonly { readonly path: string; readonly state: string }[];
  /** The agent whose `cancel_agent` call started it, and that call's id. */
  readonly call?: { readonly by: string; readonly callId: string };
}

/**
 * A call asked for the host's approval (written when it is asked): a resume asks it again
 * under the same id and order, unless an {@link ApprovalAnswerRecord} follows.
 */
export interface ApprovalRecord {
  readonly type: 'approval';
  readonly id: string;
  /** Its place in the session's order of requests (`ApprovalRequest.seq`; `seq` is the line's). */
  readonly order: number;
  readonly path: string;
  readonly role: string | null;
  readonly toolName: string;
  readonly args: unknown;
  readonly rule: { readonly kind: string; readonly [key: string]: unknown };
  readonly callId: string;
  readonly turn: number;
}

/** An approval request was answered (or withdrawn: its agent or turn was cancelled). */
export interface ApprovalAnswerRecord {
  readonly type: 'approval-answer';
  readonly id: string;
  /** The agent whose call it was. */
  readonly path: string;
  readonly approved: boolean;
  readonly reason?: string;
  readonly by: 'callback' | 'host' | 'withdrawn' | 'failed';
}

/** Any record after the header. */
export type SessionRecord = BlobRecord | SpawnRecord | AdvanceRecord | HookRecord | BackgroundRecord | ResultRecord | ReleaseRecord | CancelRecord | ApprovalRecord | ApprovalAnswerRecord;

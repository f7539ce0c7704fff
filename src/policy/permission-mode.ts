/**
 * Claude Code's `permissionMode`, mapped to this library's capability and confirmation rules.
 *
 * | mode | tools | confirmation at spawn | per-call approval (`callApproval`) |
 * | --- | --- | --- | --- |
 * | `default` | as the role's lists say | asked for risky capabilities the delegating agent lacks | as the host's tools declare |
 * | `acceptEdits` | as the role's lists say | `write` is granted without asking; the rest as `default` | skipped for tools that grant `write` |
 * | `plan` | tools that grant `write` or `shell` are removed (read-only) | as `default` for what is left | as the host's tools declare |
 * | `dontAsk` | as the role's lists say | never asked: a spawn that would need a question is refused | a call that would be asked is refused |
 * | `bypassPermissions` | as the role's lists say | always asked, with `bypass_permissions` listed; refused without a `confirm` callback | skipped |
 *
 * Tools are classified by the host's capability catalog and the capabilities a host tool
 * declares. Permission patterns in the role's tool lists are enforced in every mode,
 * `bypassPermissions` included: they are the role's own limits, not questions.
 */
import type { AccessCapability } from './capabilities.js';

/** Every permission mode, in documentation order. */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'] as const;

/** A role's permission mode. */
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** What a mode changes. */
export interface PermissionModeRules {
  /** Capabilities whose tools the subagent does not get. */
  readonly removes: readonly AccessCapability[];
  /** Capabilities granted without asking. */
  readonly grants: readonly AccessCapability[];
  /** `as_needed`: ask for what is risky; `never`: refuse instead of asking; `always`: ask even if nothing else is risky. */
  readonly confirmation: 'as_needed' | 'never' | 'always';
  /**
   * How a host's per-call approval treats this mode: `as_declared` asks as the tool says,
   * `skip_write` skips it for tools that grant `write`, `refuse` refuses instead of asking,
   * `skip` never asks.
   */
  readonly callApproval: 'as_declared' | 'skip_write' | 'refuse' | 'skip';
}

/** One frozen row of the mapping. */
const rules = (
  removes: readonly AccessCapability[],
  grants: readonly AccessCapability[],
  confirmation: PermissionModeRules['confirmation'],
  callApproval: PermissionModeRules['callApproval'],
): PermissionModeRules => Object.freeze({ removes: Object.freeze([...removes]), grants: Object.freeze([...grants]), confirmation, callApproval });

/** The mapping, one row per mode (see the module documentation). */
export const PERMISSION_MODE_RULES: Readonly<Record<PermissionMode, PermissionModeRules>> = Object.freeze({
  default: rules([], [], 'as_needed', 'as_declared'),
  acceptEdits: rules([], ['write'], 'as_needed', 'skip_write'),
  plan: rules(['write', 'shell'], [], 'as_needed', 'as_declared'),
  dontAsk: rules([], [], 'never', 'refuse'),
  bypassPermissions: rules([], [], 'always', 'skip'),
});

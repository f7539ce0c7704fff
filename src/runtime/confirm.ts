/**
 * Capability confirmation (docs/architecture.md, "Spawning"): before a subagent gets a risky
 * capability its parent does not already hold, the host is asked once, and may refuse.
 */
import { requiredConfirmations, toolCapabilities, type AccessCapability, type CapabilityCatalog, type RequiredCapability } from '../policy/capabilities.js';
import type { ConfirmCallback } from '../policy/confirmation.js';
import type { SystemConfiguration } from '../request/types.js';
import { RuntimeError } from './errors.js';
import { raceAbort } from '../model/abort.js';

/** What one confirmation check needs. */
export interface ConfirmInput {
  readonly parentPath: string;
  readonly taskName: string;
  readonly role: string | undefined;
  readonly parentSystem: SystemConfiguration;
  readonly parentModel: string;
  readonly system: SystemConfiguration;
  readonly model: string;
  readonly signal: AbortSignal | undefined;
  readonly externalDirectories?: readonly string[] | undefined;
  readonly inheritsExtensions?: boolean | undefined;
}

/** Asks the host's callback when a spawn would widen what its parent may do. */
export class Confirmer {
  constructor(
    private readonly options: {
      readonly confirm?: ConfirmCallback;
      readonly capabilities?: CapabilityCatalog;
      /** What the root may do without asking (its own tools' capabilities are always granted). */
      readonly rootGrants?: readonly AccessCapability[];
    },
  ) {}

  /**
   * Undefined when nothing needs asking; otherwise a promise that resolves when allowed and
   * rejects with a RuntimeError on denial, a failing callback, or abort.
   */
  confirm(input: ConfirmInput): Promise<void> | undefined {
    const { confirm, capabilities: catalog } = this.options;
    if (!confirm || !catalog) return undefined;
    const granted = new Set<AccessCapability>(this.options.rootGrants ?? []);
    for (const tool of input.parentSystem.tools) for (const c of toolCapabilities(catalog, tool.name)) granted.add(c);
    const parentTier = catalog.models.get(input.parentModel) ?? 0;
    const required = requiredConfirmations({
      parentGrants: { capabilities: granted, maxCostTier: parentTier },
      childTools: input.system.tools.map((t) => t.name),
      ...(input.model !== input.parentModel ? { childModel: input.model } : {}),
      ...(input.externalDirectories?.length ? { externalDirectories: input.externalDirectories } : {}),
      ...(input.inheritsExtensions ? { inheritsExtensions: true } : {}),
      catalog,
    });
    if (required.length === 0) return undefined;
    return this.ask(confirm, input, required);
  }

  private async ask(confirm: ConfirmCallback, input: ConfirmInput, required: RequiredCapability[]): Promise<void> {
    const signal = input.signal ?? new AbortController().signal;
    const who = `${input.parentPath}/${input.taskName}`;
    let decision;
    try {
      const request = { parentPath: input.parentPath, taskName: input.taskName, ...(input.role ? { role: input.role } : {}), capabilities: required };
      // Asked at once (a synchronous throw lands in the catch below), so the host sees an
      // abort of a question it was asked.
      decision = await raceAbort(confirm(request, signal), signal);
    } catch (error) {
      if (signal.aborted) throw new RuntimeError('aborted', `the spawn of ${who} was cancelled while waiting for confirmation`);
      throw new RuntimeError('confirmation_failed', `asking the host to confirm ${who} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!decision.approved) {
      throw new RuntimeError(
        'confirmation_denied',
        `the host did not allow starting ${who} (${required.map((r) => r.reason).join('; ')})${decision.reason ? `: ${decision.reason}` : ''}`,
      );
    }
  }
}

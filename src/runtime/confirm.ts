/**
 * Capability confirmation (DESIGN section 4, step 3): before a subagent gets a risky
 * capability its parent does not already hold, the host is asked once, and may refuse.
 */
import { requiredConfirmations, type AccessCapability, type CapabilityCatalog, type RequiredCapability } from '../policy/capabilities.js';
import type { ConfirmCallback } from '../policy/confirmation.js';
import type { SystemConfiguration } from '../request/types.js';
import { RuntimeError } from './errors.js';

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
    for (const tool of input.parentSystem.tools) for (const c of catalog.tools.get(tool.name) ?? []) granted.add(c);
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
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    input.signal?.addEventListener('abort', onAbort, { once: true });
    if (input.signal?.aborted) controller.abort();
    try {
      const decision = await Promise.race([
        confirm({ parentPath: input.parentPath, taskName: input.taskName, ...(input.role ? { role: input.role } : {}), capabilities: required }, controller.signal),
        new Promise<never>((_, reject) => {
          const fail = (): void => reject(new RuntimeError('aborted', `the spawn of ${input.parentPath}/${input.taskName} was cancelled while waiting for confirmation`));
          if (controller.signal.aborted) fail();
          else controller.signal.addEventListener('abort', fail, { once: true });
        }),
      ]);
      if (!decision.approved) {
        throw new RuntimeError(
          'confirmation_denied',
          `the host did not allow starting ${input.parentPath}/${input.taskName} (${required.map((r) => r.reason).join('; ')})${decision.reason ? `: ${decision.reason}` : ''}`,
        );
      }
    } catch (error) {
      if (error instanceof RuntimeError) throw error;
      throw new RuntimeError('confirmation_failed', `asking the host to confirm ${input.parentPath}/${input.taskName} failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      input.signal?.removeEventListener('abort', onAbort);
    }
  }
}

/**
 * The initial task text of a subagent, chosen by how its task is framed.
 *
 * The agent machine holds a framing (fork, summary or independent) and asks for the text once
 * the task hooks accepted the task; this picks the fork wrapper or the independent layout.
 */
import type { Attachment } from '../dialogue/entry.js';
import type { SystemConfiguration } from './types.js';
import { forkTaskWrapper, independentTaskText, type DelegatedRole } from './wrapper.js';

/**
 * How a subagent's initial task is framed. `fork` covers both `all` and N-turn forks (the
 * wrapper words them alike); `summary` follows generated background; `independent` sees no
 * parent dialogue.
 */
export type TaskFraming =
  | { readonly kind: 'fork'; readonly parentPath: string; readonly role: DelegatedRole | undefined; readonly attachments?: readonly Attachment[] }
  | { readonly kind: 'summary'; readonly parentPath: string; readonly role: DelegatedRole | undefined; readonly attachments?: readonly Attachment[] }
  | {
      readonly kind: 'independent';
      readonly parentPath: string;
      readonly instructions: string | undefined;
      readonly projectContext: string | undefined;
      readonly attachments: readonly Attachment[];
    };

/**
 * The text of the initial task. Without a framing (the root agent, or a task given as is) the
 * task is returned unchanged. `system` is the subagent's own configuration: reply guidance is
 * included only when it has `send_message`.
 */
export function composeInitialTask(framing: TaskFraming | undefined, task: string, system: SystemConfiguration): string {
  if (framing === undefined) return task;
  switch (framing.kind) {
    case 'fork':
    case 'summary':
      return forkTaskWrapper({
        task,
        parentPath: framing.parentPath,
        ...(framing.role !== undefined ? { role: framing.role } : {}),
        contextMode: framing.kind === 'fork' ? 'all' : 'summary',
        ...(framing.attachments?.length ? { attachments: framing.attachments } : {}),
        visibleTools: system,
      });
    case 'independent':
      return independentTaskText({
        task,
        parentPath: framing.parentPath,
        ...(framing.instructions !== undefined ? { instructions: framing.instructions } : {}),
        ...(framing.projectContext !== undefined ? { projectContext: framing.projectContext } : {}),
        attachments: framing.attachments,
        visibleTools: system,
      });
  }
}

/**
 * How an `Agent` call looks in Pi's TUI: the role and task name with the task, then the
 * subagent's live state while it works, then its result text (not the JSON the model reads).
 */
import type { AgentToolResult, Theme, ToolDefinition, ToolRenderResultOptions } from '@earendil-works/pi-coding-agent';
import { Text } from '@earendil-works/pi-tui';

/** The context Pi passes its tool renderers (its type is not exported by name). */
type ToolRenderContext = Parameters<NonNullable<ToolDefinition['renderCall']>>[2];

/** What the extension puts in an `Agent` result's `details` (and in its progress updates). */
export interface AgentCallDetails {
  /** The subagent's path, once known. */
  readonly path?: string;
  /** The latest live state (`running`, `read: …`), in progress updates. */
  readonly state?: string;
  /** The settled subagent's status (`completed`, `failed`, …) or the receipt's. */
  readonly status?: string;
  /** The result text the subagent reported. */
  readonly result?: string;
}

/** Lines of a result shown before it is expanded. */
const COLLAPSED_LINES = 12;

/** The fields of the tool's JSON answer the TUI shows. */
export function agentCallDetails(content: string): AgentCallDetails {
  try {
    const value = JSON.parse(content) as Record<string, unknown>;
    return {
      ...(typeof value['agent_id'] === 'string' ? { path: value['agent_id'] } : {}),
      ...(typeof value['status'] === 'string' ? { status: value['status'] } : {}),
      ...(typeof value['result'] === 'string' ? { result: value['result'] } : typeof value['text'] === 'string' ? { result: value['text'] } : {}),
    };
  } catch {
    return { result: content };
  }
}

function reuse(context: ToolRenderContext): Text {
  return context.lastComponent instanceof Text ? context.lastComponent : new Text('', 0, 0);
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The call row: `Agent reviewer · check-auth` and the task.
 *
 * @example
 * ```ts
 * pi.registerTool({ ...agentTool, renderCall: renderAgentCall, renderResult: renderAgentResult });
 * ```
 */
export function renderAgentCall(input: unknown, theme: Theme, context: ToolRenderContext): Text {
  const args = (input !== null && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const role = typeof args['role'] === 'string' ? args['role'] : 'subagent';
  const name = typeof args['task_name'] === 'string' ? args['task_name'] : '…';
  const task = typeof args['message'] === 'string' ? args['message'] : '';
  const extra = [args['context'], args['model']].filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String);
  let text = `${theme.fg('toolTitle', theme.bold('Agent'))} ${theme.fg('accent', role)} · ${name}`;
  if (extra.length > 0) text += theme.fg('dim', ` (${extra.join(', ')})`);
  if (task !== '') text += `\n${theme.fg('muted', oneLine(task, 200))}`;
  const component = reuse(context);
  component.setText(text);
  return component;
}

/** The result row: the live state while the subagent works, then its result text. */
export function renderAgentResult(result: AgentToolResult<unknown>, options: ToolRenderResultOptions, theme: Theme, context: ToolRenderContext): Text {
  const details = (result.details ?? {}) as AgentCallDetails;
  const raw = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  const component = reuse(context);
  if (options.isPartial) {
    const state = details.state ?? (raw || 'starting');
    component.setText(theme.fg('warning', `● ${details.path !== undefined && !state.startsWith(details.path) ? `${details.path}: ` : ''}${state}`));
    return component;
  }
  if (context.isError) {
    component.setText(theme.fg('error', raw));
    return component;
  }
  const shown = details.result ?? raw;
  const lines = shown.split('\n');
  const cut = !options.expanded && lines.length > COLLAPSED_LINES;
  // Pi before 1.6 passes no keyHint to renderers.
  const hint = typeof context.keyHint === 'function' ? context.keyHint('app.tools.expand', 'to expand') : 'expand the tool row to see them';
  const body = cut ? [...lines.slice(0, COLLAPSED_LINES), theme.fg('dim', `… ${lines.length - COLLAPSED_LINES} more lines (${hint})`)] : lines;
  const head = details.status !== undefined ? theme.fg(details.status === 'completed' ? 'success' : 'warning', `${details.path ?? ''} ${details.status}`.trim()) : undefined;
  component.setText([...(head !== undefined ? [head] : []), ...body].join('\n'));
  return component;
}

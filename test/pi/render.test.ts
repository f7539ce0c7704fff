import { describe, expect, it } from 'vitest';
import type { Theme } from '@earendil-works/pi-coding-agent';
import { agentCallDetails, renderAgentCall, renderAgentResult } from '../../src/pi/render.js';

/** A theme that marks colours as `<colour:text>`, so a test can see them. */
const theme = { fg: (color: string, text: string) => `<${color}:${text}>`, bold: (text: string) => text } as unknown as Theme;
const context = (extra: Record<string, unknown> = {}) =>
  ({ lastComponent: undefined, isError: false, keyHint: (_key: string, text: string) => `ctrl+o ${text}`, ...extra }) as unknown as Parameters<typeof renderAgentCall>[2];
const lines = (component: { render(width: number): readonly string[] }) => component.render(200).map((line) => line.trimEnd());

describe('Agent rows in the TUI', () => {
  it('show the role, the task name and the task', () => {
    const row = renderAgentCall({ task_name: 'check-auth', message: 'Review the auth change\nin src/auth.ts', role: 'reviewer', context: 'all' }, theme, context());
    expect(lines(row)).toEqual(['<toolTitle:Agent> <accent:reviewer> · check-auth<dim: (all)>', '<muted:Review the auth change in src/auth.ts>']);
  });

  it('show the live state while the subagent works', () => {
    const row = renderAgentResult({ content: [{ type: 'text', text: '/root/check-auth: read: 40 lines' }], details: { path: '/root/check-auth', state: 'read: 40 lines' } }, { expanded: false, isPartial: true }, theme, context());
    expect(lines(row)).toEqual(['<warning:● /root/check-auth: read: 40 lines>']);
  });

  it('then the result text, not the JSON', () => {
    const content = JSON.stringify({ agent_id: '/root/check-auth', result: 'No problems found.\nChecked 3 files.', status: 'completed', stop_reason: 'completed' });
    const row = renderAgentResult({ content: [{ type: 'text', text: content }], details: agentCallDetails(content) }, { expanded: false, isPartial: false }, theme, context());
    expect(lines(row)).toEqual(['<success:/root/check-auth completed>', 'No problems found.', 'Checked 3 files.']);
  });

  it('collapse a long result until it is expanded, and show errors as they are', () => {
    const content = JSON.stringify({ agent_id: '/root/x', result: Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n'), status: 'completed' });
    const collapsed = renderAgentResult({ content: [{ type: 'text', text: content }], details: agentCallDetails(content) }, { expanded: false, isPartial: false }, theme, context());
    expect(lines(collapsed)).toHaveLength(14);
    expect(lines(collapsed).at(-1)).toBe('<dim:… 8 more lines (ctrl+o to expand)>');
    const expanded = renderAgentResult({ content: [{ type: 'text', text: content }], details: agentCallDetails(content) }, { expanded: true, isPartial: false }, theme, context());
    expect(lines(expanded)).toHaveLength(21);
    const error = renderAgentResult({ content: [{ type: 'text', text: 'Error (unknown_role): no role "x"' }], details: {} }, { expanded: false, isPartial: false }, theme, context({ isError: true }));
    expect(lines(error)).toEqual(['<error:Error (unknown_role): no role "x">']);
  });
});

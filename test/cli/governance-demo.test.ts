/** The demo's governance epilogue (#26): a budget stop and an approval, as `npm run demo` shows them. */
import { describe, expect, it } from 'vitest';
import { runGovernanceDemo } from '../../src/cli/governance-demo.js';

describe('the governance epilogue of the demo', () => {
  it('shows the profiler stopped by its budget and the production deploy denied by the person', async () => {
    let text = '';
    const outcome = await runGovernanceDemo({ write: (t: string) => (text += t) }, false);
    expect(outcome.profiler).toMatchObject({ status: 'failed', stopReason: 'budget_exceeded' });
    expect(outcome.approvals.map((r) => [r.path, r.toolName, r.args, r.rule.kind])).toEqual([['/root/publisher', 'deploy', { env: 'production' }, 'needsApproval']]);
    expect(outcome.denial).toBe('Error (approval_denied): the host denied this call of deploy, which needed approval (the tool needs approval): release freeze until Monday');
    expect(outcome.publisher.status).toBe('completed');
    expect(text).toContain('approval /root/publisher asks to call deploy {"env":"production"} (rule: needsApproval, call prd, turn 0)');
    expect(text).toMatch(/budget \/root\/profiler settled failed, stop reason budget_exceeded: budget exceeded: the next model request could use \d+ tokens/);
  });
});

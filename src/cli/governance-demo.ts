/**
 * The demo's governance epilogue: a short scripted session after the release session that
 * shows a budget stop and an approval. The root delegates to two subagents at once: the
 * `publisher` asks to deploy (a tool that needs approval; the person, played by the demo,
 * denies production and the model reads why), and the `profiler` runs on a small token budget
 * carved from the session's, whose next model request would cross it: that request is never
 * sent and the profiler settles with stop reason `budget_exceeded`, with its one result.
 */
import { z } from 'zod';
import { createRuntime, defineRuntimeTool, type AgentResult, type ApprovalRequest } from '../index.js';
import { scriptedModel } from '../testing/index.js';
import { palette, type TextSink } from './format.js';

const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 });

/** What the epilogue shows, for tests. */
export interface GovernanceDemoOutcome {
  readonly approvals: readonly ApprovalRequest[];
  readonly profiler: AgentResult;
  readonly publisher: AgentResult;
  /** What the publisher's model read as its deploy call's result. */
  readonly denial: string;
}

/** Runs the epilogue and writes what happened to `out`. */
export async function runGovernanceDemo(out: TextSink, color: boolean): Promise<GovernanceDemoOutcome> {
  const p = palette(color);
  const deploy = defineRuntimeTool({
    name: 'deploy',
    description: 'Deploys the release to an environment.',
    schema: z.object({ env: z.enum(['staging', 'production']) }),
    needsApproval: ({ env }) => env === 'production',
    execute: ({ env }) => `deployed kite 2.0 to ${env}`,
  });
  const model = scriptedModel({
    '/root': {
      0: [
        {
          toolCalls: [
            { name: 'Agent', id: 'pub', arguments: { task_name: 'publisher', message: 'Deploy kite 2.0 to staging, then production.' } },
            { name: 'Agent', id: 'prof', arguments: { task_name: 'profiler', message: 'Profile the parser on the large corpus.', budget: { tokens: 6_000 } } },
          ],
          usage: usage(1_200, 80),
        },
        { text: 'Staging is deployed; production waits for the freeze to end. The profiler ran out of budget.', usage: usage(1_500, 40) },
      ],
    },
    '/root/publisher': {
      0: [
        { toolCalls: [{ name: 'deploy', id: 'stg', arguments: { env: 'staging' } }, { name: 'deploy', id: 'prd', arguments: { env: 'production' } }], usage: usage(400, 30) },
        { text: 'Deployed to staging; production was denied (release freeze).', usage: usage(500, 20) },
      ],
    },
    '/root/profiler': {
      0: [
        { toolCalls: [{ name: 'list_agents', arguments: {} }], usage: usage(4_800, 150) },
        { text: 'never sent: the budget stops it first', usage: usage(10, 10) },
      ],
    },
  });
  const approvals: ApprovalRequest[] = [];
  const runtime = createRuntime({
    model,
    tools: [deploy],
    budget: { tokens: 50_000, spawns: 4 },
    maxOutputTokens: 1_000,
    // The person, played here: production is frozen this week.
    approve: (request) => {
      approvals.push(request);
      return { approved: false, reason: 'release freeze until Monday' };
    },
  });
  out.write(`\n${p.bold('Governance:')} a budget stop and an approval, in a second short session\n`);
  runtime.on('approval-requested', (r) =>
    out.write(`  ${p.yellow('approval')} ${r.path} asks to call ${r.toolName} ${JSON.stringify(r.args)} (rule: ${r.rule.kind}, call ${r.callId}, turn ${r.turn})\n`),
  );
  runtime.on('approval-answered', (a) => out.write(`  ${p.yellow('approval')} ${a.path}: ${a.approved ? 'approved' : `denied: ${a.reason ?? ''}`}\n`));
  runtime.on('budget-warning', (w) => out.write(`  ${p.yellow('budget')} ${w.path}: ${w.dimension} at ${w.used} of ${w.limit}\n`));
  try {
    await runtime.prompt('Ship kite 2.0 and profile the parser.');
    await runtime.whenQuiet();
    const profiler = await runtime.result('/root/profiler');
    const publisher = await runtime.result('/root/publisher');
    out.write(`  ${p.red('budget')} /root/profiler settled ${profiler.status}, stop reason ${profiler.stopReason}: ${profiler.error ?? ''}\n`);
    const denial = (runtime.transcript('/root/publisher')?.log.toArray() ?? []).flatMap((e) => (e.kind === 'tool_result' && e.callId === 'prd' ? [e.content] : []))[0] ?? '';
    out.write(`  ${p.dim('the publisher read:')} ${denial}\n`);
    out.write(`  ${p.dim(`session budget left: ${JSON.stringify(runtime.budgetOf('/root'))}`)}\n`);
    return { approvals, profiler, publisher, denial };
  } finally {
    runtime.stop('demo finished');
  }
}

/**
 * subagent-actors inside the pi coding agent.
 *
 * From this repository (after `npm run build`):
 *   npx pi -e ./examples/pi/subagents.ts
 * In your own project:
 *   npm install subagent-actors @earendil-works/pi-coding-agent@1
 *   pi -e ./subagents.ts
 *
 * The pi session gets the Agent, send_message, list_agents, cancel_agent and close_agent
 * tools. Roles come from `.pi/agents/*.md` and `.claude/agents/*.md` in the working directory.
 */
import { piSubagents } from 'subagent-actors/pi';

export default piSubagents({
  runtime: {
    // At most two levels of subagents, and six live at once.
    limits: { maxDepth: 2, maxTotal: 6 },
    // Forks stay open for follow-ups through send_message; results come back as the tool's result.
    defaults: { delivery: 'caller' },
  },
});

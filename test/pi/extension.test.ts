import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fauxAssistantMessage, fauxText, fauxToolCall, type JsonObject } from '@earendil-works/pi-ai';
import { SUMMARY_SYSTEM_PROMPT } from '../../src/index.js';
import { createPiHarness, lastText, requestBytes, type PiHarness, type SeenRequest } from './harness.js';

let harness: PiHarness | undefined;
const piHome = join(homedir(), '.pi');
const homeBefore = existsSync(piHome) ? readdirSync(piHome, { recursive: true }).length : -1;
afterAll(() => {
  // Sessions run in process and offline, and write nothing to HOME.
  expect(existsSync(piHome) ? readdirSync(piHome, { recursive: true }).length : -1).toBe(homeBefore);
});
afterEach(() => {
  harness?.dispose();
  harness = undefined;
});

const agentCall = (args: JsonObject, id = 'call_agent') => fauxAssistantMessage([fauxToolCall('Agent', args, { id })], { stopReason: 'toolUse' });
const isFirstRequestOf = (request: SeenRequest, marker: string) => request.context.messages.at(-1)?.role === 'user' && lastText(request).includes(marker);

describe('subagent-actors/pi', () => {
  it('registers the library tools on the Pi session with the library schemas', async () => {
    harness = await createPiHarness({ respond: () => fauxAssistantMessage('hello') });
    await harness.session.prompt('hi');
    const names = harness.requests[0]!.context.tools!.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent']));
  });

  it('forks with the Pi branch: the first request of the fork starts with the parent’s last request, byte for byte', async () => {
    harness = await createPiHarness({
      // A role makes the Agent tool carry the role catalog: Pi must send the runtime's description.
      files: { '.pi/agents/tester.md': '---\nname: tester\ndescription: Runs the tests\n---\nRun them.\n' },
      respond: (r) => {
        if (isFirstRequestOf(r, 'FORK-TASK')) return fauxAssistantMessage('fork found the bug in parser.ts');
        if (r.context.messages.at(-1)?.role === 'toolResult') return fauxAssistantMessage('The fork says: parser.ts.');
        return fauxAssistantMessage([fauxText('Delegating.'), fauxToolCall('Agent', { task_name: 'fork', message: 'FORK-TASK find the bug', context: 'all' }, { id: 'c1' })], {
          stopReason: 'toolUse',
        });
      },
    });
    const updates: string[] = [];
    harness.session.subscribe((event) => {
      if (event.type === 'tool_execution_update') updates.push(JSON.stringify(event.partialResult));
    });
    await harness.session.prompt('Why does parsing fail?');
    // Progress of the subagent reaches Pi through the tool's onUpdate.
    expect(updates.some((u) => u.includes('/root/fork: running'))).toBe(true);
    const [parent, child, parentAfter] = harness.requests;
    expect(harness.requests).toHaveLength(3);
    const parentBytes = requestBytes(parent!.context);
    const childBytes = requestBytes(child!.context);
    // Same system prompt (date and working directory included), same tools in the same order,
    // then the inherited messages, then only what the fork adds.
    expect(childBytes.slice(0, parentBytes.length)).toEqual(parentBytes);
    expect(childBytes.length).toBeGreaterThan(parentBytes.length);
    expect(childBytes.join('')).not.toContain('"name":"Agent","arguments"');
    expect(parent!.context.tools!.find((t) => t.name === 'Agent')!.description).toContain('tester');
    expect(lastText(parentAfter!)).toContain('fork found the bug in parser.ts');
    // Forks are continuable under the pi preset too: the fork waits for follow-ups until closed.
    expect(harness.runtime().stateOf('/root/fork')).toBe('running.idle');
    expect(harness.runtime().list().find((a) => a.path === '/root/fork')?.lifetime).toBe('continuable');
    harness.runtime().close('/root/fork');
    const result = await harness.runtime().result('/root/fork');
    expect(result).toMatchObject({ status: 'completed', stopReason: 'closed', contextMode: 'all', text: 'fork found the bug in parser.ts' });
  });

  it('spawns an independent subagent that sees none of the Pi conversation', async () => {
    harness = await createPiHarness({
      respond: (r) => {
        if (isFirstRequestOf(r, 'ALONE-TASK')) return fauxAssistantMessage('alone done');
        if (r.context.messages.at(-1)?.role === 'toolResult') return fauxAssistantMessage('ok');
        return agentCall({ task_name: 'alone', message: 'ALONE-TASK count files', context: 'none' });
      },
    });
    await harness.session.prompt('SECRET-PARENT-PROMPT');
    const child = harness.requests[1]!;
    expect(child.context.messages).toHaveLength(1);
    expect(JSON.stringify(child.context.messages)).not.toContain('SECRET-PARENT-PROMPT');
    expect(child.context.systemPrompt).toBe(harness.requests[0]!.context.systemPrompt);
  });

  it('spawns a summary subagent whose background is generated by the Pi session’s model', async () => {
    harness = await createPiHarness({
      respond: (r) => {
        if (r.context.systemPrompt === SUMMARY_SYSTEM_PROMPT) return fauxAssistantMessage('BACKGROUND: the user debugs the lexer');
        if (isFirstRequestOf(r, 'SUM-TASK')) return fauxAssistantMessage('summary child done');
        if (r.context.messages.at(-1)?.role === 'toolResult') return fauxAssistantMessage('ok');
        return agentCall({ task_name: 'sum', message: 'SUM-TASK write the fix', context: 'summary' });
      },
    });
    await harness.session.prompt('The lexer drops tabs');
    const summaryRequest = harness.requests.find((r) => r.context.systemPrompt === SUMMARY_SYSTEM_PROMPT);
    expect(JSON.stringify(summaryRequest?.context.messages)).toContain('The lexer drops tabs');
    const child = harness.requests.find((r) => r !== summaryRequest && isFirstRequestOf(r, 'SUM-TASK'))!;
    expect(JSON.stringify(child.context.messages)).toContain('BACKGROUND: the user debugs the lexer');
    expect(JSON.stringify(child.context.messages)).not.toContain('The lexer drops tabs');
    expect(await harness.runtime().result('/root/sum')).toMatchObject({ status: 'completed', contextMode: 'summary' });
  });

  it('keeps a continuable subagent for a follow-up sent with send_message', async () => {
    let parentTurn = 0;
    harness = await createPiHarness({
      options: { runtime: { defaults: { lifetime: 'continuable' } } },
      respond: (r) => {
        if (isFirstRequestOf(r, 'CONT-TASK')) return fauxAssistantMessage('first answer');
        if (r.context.messages.at(-1)?.role === 'user' && lastText(r).includes('FOLLOW-UP')) return fauxAssistantMessage('second answer');
        if (r.context.messages.at(-1)?.role === 'toolResult') return fauxAssistantMessage(`parent step ${parentTurn}`);
        if (lastText(r).includes('<subagent_turn>')) return fauxAssistantMessage('noted the follow-up answer');
        parentTurn += 1;
        return parentTurn === 1
          ? agentCall({ task_name: 'cont', message: 'CONT-TASK draft notes', context: 'none' })
          : fauxAssistantMessage([fauxToolCall('send_message', { agent_id: '/root/cont', message: 'FOLLOW-UP add the date' }, { id: 'm1' })], { stopReason: 'toolUse' });
      },
    });
    await harness.session.prompt('Draft notes');
    expect(harness.runtime().stateOf('/root/cont')).toBe('running.idle');
    await harness.session.prompt('Now ask for the date');
    const followUp = await harness.request((r) => lastText(r).includes('FOLLOW-UP'));
    // The follow-up continues the subagent's own dialogue.
    expect(JSON.stringify(followUp.context.messages)).toContain('first answer');
    // Its turn report reaches the Pi session, which answers it.
    const report = await harness.request((r) => lastText(r).includes('<subagent_turn>'));
    expect(lastText(report)).toContain('second answer');
  });

  it('parent delivery returns a receipt and wakes the idle Pi session with the result', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    harness = await createPiHarness({
      options: { runtime: { defaults: { delivery: 'parent' } } },
      respond: async (r) => {
        if (isFirstRequestOf(r, 'BG-TASK')) {
          await released;
          return fauxAssistantMessage('background work finished');
        }
        if (lastText(r).includes('<subagent_result>')) return fauxAssistantMessage('got the background result');
        if (r.context.messages.at(-1)?.role === 'toolResult') return fauxAssistantMessage('started it, waiting');
        return agentCall({ task_name: 'bg', message: 'BG-TASK index the repo', context: 'none' });
      },
    });
    await harness.session.prompt('Index in the background');
    const receipt = harness.requests.find((r) => r.context.messages.at(-1)?.role === 'toolResult')!;
    expect(lastText(receipt)).toContain('"status":"started"');
    expect(harness.session.isStreaming).toBe(false);
    const woke = new Promise<void>((resolve) => harness!.session.subscribe((e) => e.type === 'agent_end' && resolve()));
    release();
    await woke;
    const wake = harness.requests.find((r) => lastText(r).includes('<subagent_result>'))!;
    expect(lastText(wake)).toContain('background work finished');
    // The notice names its sender in a wrapper its text cannot forge.
    expect(lastText(wake)).toMatch(/^<agent_input kind="notice" from="\/root\/bg">/);
  });

  it('aborting the Pi turn cancels the running subagent and its subtree', async () => {
    let childAsked!: () => void;
    const asked = new Promise<void>((resolve) => (childAsked = resolve));
    harness = await createPiHarness({
      respond: (r) => {
        if (isFirstRequestOf(r, 'SLOW-TASK')) {
          childAsked();
          // Answers only when aborted, as a provider stream does.
          return new Promise((resolve) => r.options?.signal?.addEventListener('abort', () => resolve(fauxAssistantMessage('', { stopReason: 'aborted' }))));
        }
        if (r.context.messages.at(-1)?.role === 'toolResult') return fauxAssistantMessage('aborted?');
        return agentCall({ task_name: 'slow', message: 'SLOW-TASK think forever', context: 'none' });
      },
    });
    const turn = harness.session.prompt('Start the slow one');
    await asked;
    await harness.session.abort();
    await turn;
    const result = await harness.runtime().result('/root/slow');
    expect(result.status).toBe('cancelled');
    expect(harness.runtime().slotsInUse).toBe(0);
  });

  it('takes roles from .claude/agents files and enforces their tool filter when a tool runs', async () => {
    harness = await createPiHarness({
      files: {
        '.claude/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews diffs without changing anything\ntools: read\n---\nYou review code. Never edit.\n',
      },
      respond: (r) => {
        if (isFirstRequestOf(r, 'REVIEW-TASK')) {
          return fauxAssistantMessage([fauxToolCall('bash', { command: 'rm -rf build' }, { id: 'b1' })], { stopReason: 'toolUse' });
        }
        if (r.context.messages.at(-1)?.role === 'toolResult' && (r.context.messages.at(-1) as { toolCallId: string }).toolCallId === 'b1') {
          return fauxAssistantMessage('bash was refused');
        }
        if (r.context.messages.at(-1)?.role === 'toolResult') return fauxAssistantMessage('done');
        return agentCall({ task_name: 'review', message: 'REVIEW-TASK check the diff', role: 'reviewer', context: 'none' });
      },
    });
    await harness.session.prompt('Review it');
    const child = harness.requests.find((r) => isFirstRequestOf(r, 'REVIEW-TASK'))!;
    expect(child.context.tools!.map((t) => t.name)).not.toContain('bash');
    expect(child.context.tools!.map((t) => t.name)).toContain('read');
    expect(JSON.stringify(child.context.messages)).toContain('You review code. Never edit.');
    const refused = harness.requests.find((r) => r.context.messages.at(-1)?.role === 'toolResult' && lastText(r).includes('bash'))!;
    expect(refused.context.messages.at(-1)).toMatchObject({ role: 'toolResult', isError: true });
    expect(lastText(refused)).toContain('tool_not_allowed');
  });

  it('session_shutdown cancels every subagent with the usual report', async () => {
    harness = await createPiHarness({
      options: { runtime: { defaults: { lifetime: 'continuable' } } },
      respond: (r) => {
        if (isFirstRequestOf(r, 'IDLE-TASK')) return fauxAssistantMessage('idle now');
        if (r.context.messages.at(-1)?.role === 'toolResult') return fauxAssistantMessage('ok');
        return agentCall({ task_name: 'idler', message: 'IDLE-TASK wait', context: 'none' });
      },
    });
    await harness.session.prompt('Start one that stays');
    expect(harness.runtime().stateOf('/root/idler')).toBe('running.idle');
    await harness.shutdown();
    expect(harness.shutdowns).toHaveLength(1);
    expect(harness.shutdowns[0]!.stopped.map((s) => s.path)).toEqual(['/root/idler', '/root']);
    expect(harness.runtime().list()).toEqual([]);
  });
});

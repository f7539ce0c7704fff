/**
 * The real `pi` command with the subagents extension: `HOME` in a temporary folder, a custom
 * model (models.json) pointing at the provider stand-in on 127.0.0.1, print mode. The prompt
 * makes the session call `Agent`; the subagent runs Pi's real `read` tool; its result comes back
 * into the session and out on stdout.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, userTexts, type RecordedRequest, type StandIn, type WireReply } from '../wire/stand-in/index.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// The package's `bin` (its exports name no package.json): dist/bundle/cli.js beside dist/index.js.
const piCli = join(dirname(fileURLToPath(import.meta.resolve('@earendil-works/pi-coding-agent'))), 'bundle/cli.js');

type ChatMessage = { readonly role: string; readonly content?: unknown; readonly tool_calls?: readonly { readonly function: { readonly name: string } }[] };
const messagesOf = (request: RecordedRequest): ChatMessage[] => (request.body['messages'] as ChatMessage[] | undefined) ?? [];
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((b: { text?: string }) => b.text ?? '').join('') : '';

/** Which agent asks, and at which step: told apart by the task text in its user messages and by its last message. */
function reply(request: RecordedRequest): WireReply {
  const messages = messagesOf(request);
  const last = messages.at(-1);
  const isChild = userTexts(request).some((text) => text.includes('READ-TASK'));
  if (isChild) {
    if (last?.role !== 'tool') return { toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] };
    return { text: `CHILD-SAW ${textOf(last.content).trim()}` };
  }
  if (last?.role !== 'tool') return { toolCalls: [{ name: 'Agent', arguments: { task_name: 'reader', message: 'READ-TASK read notes.txt and quote it', context: 'none' } }] };
  return { text: `ROOT-GOT ${textOf(last.content).trim()}` };
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `pi` to its exit (print mode ends the process once the session's turn ends). */
function runPi(args: readonly string[], options: { readonly cwd: string; readonly home: string }): Promise<Run> {
  return new Promise((done, fail) => {
    // Only what Node needs: no provider keys or Pi settings from the developer's environment.
    const child = spawn(process.execPath, [piCli, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: options.home, PI_OFFLINE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

let standIn: StandIn;
let root: string;
beforeAll(async () => {
  standIn = await startStandIn({ respond: reply });
  root = mkdtempSync(join(tmpdir(), 'subagent-actors-pi-cli-'));
});
afterAll(async () => {
  await standIn.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the real pi command with the extension', () => {
  it('runs a subagent that calls Pi’s read tool, and its result comes back into the session', async () => {
    const home = join(root, 'home');
    const cwd = join(root, 'project');
    mkdirSync(join(home, '.pi', 'agent'), { recursive: true });
    mkdirSync(cwd, { recursive: true });
    // Only the file holds this line: it reaches the session through the subagent's read.
    const secret = `FILE-LINE-${randomUUID()}`;
    writeFileSync(join(cwd, 'notes.txt'), `${secret}\n`);
    writeFileSync(
      join(home, '.pi', 'agent', 'models.json'),
      JSON.stringify({
        providers: {
          'stand-in': { baseUrl: standIn.baseURL, api: 'openai-completions', apiKey: 'stand-in-key', models: [{ id: 'stand-in-1', name: 'Stand-in 1' }] },
        },
      }),
    );
    const extension = join(root, 'extension.ts');
    writeFileSync(extension, `import { piSubagents } from ${JSON.stringify(join(repo, 'src/pi/index.ts'))};\nexport default piSubagents();\n`);

    const run = await runPi(['--offline', '--no-extensions', '--no-skills', '--no-prompt-templates', '--no-context-files', '-e', extension, '--model', 'stand-in/stand-in-1', '--no-session', '-p', 'Delegate reading notes.txt.'], {
      cwd,
      home,
    });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);

    const chats = standIn.requestsTo('openai-chat');
    expect(chats.every((r) => r.body['model'] === 'stand-in-1')).toBe(true);
    const child = chats.filter((r) => userTexts(r).some((text) => text.includes('READ-TASK')));
    const parent = chats.filter((r) => !child.includes(r));
    // The session called Agent; only the subagent called read, and its read result held the file's line.
    expect(parent.flatMap(messagesOf).flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name)).toEqual(['Agent']);
    expect(child.flatMap(messagesOf).flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name)).toEqual(['read']);
    const readResult = messagesOf(child.at(-1)!).at(-1)!;
    expect(readResult.role).toBe('tool');
    expect(textOf(readResult.content)).toContain(secret);
    // The subagent's answer is the session's Agent result, and the session's final text is printed.
    const agentResult = messagesOf(parent.at(-1)!).at(-1)!;
    expect(agentResult.role).toBe('tool');
    expect(textOf(agentResult.content)).toContain(`CHILD-SAW ${secret}`);
    expect(run.stdout).toContain('ROOT-GOT');
    expect(run.stdout).toContain(secret);
    // Pi wrote only under the temporary HOME.
    expect(readdirSync(home)).toEqual(['.pi']);
  }, 120_000);
});

/**
 * An in-process Pi session with the faux provider and the subagents extension, offline and
 * with nothing written outside a temporary folder.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerFauxProvider, type AssistantMessage, type Context, type FauxProviderRegistration, type StreamOptions } from '@earendil-works/pi-ai';
import {
  AuthStorage,
  createAgentSession,
  DefaultResourceLoader,
  ModelRegistry,
  SessionManager,
  SettingsManager,
  type AgentSession,
} from '@earendil-works/pi-coding-agent';
import { piSubagents, type PiSubagentsOptions } from '../../src/pi/index.js';
import type { CancelReport, Runtime } from '../../src/index.js';

/** One request the faux provider received. */
export interface SeenRequest {
  readonly context: Context;
  readonly options: StreamOptions | undefined;
}

/** Decides the faux model's reply to one request. */
export type Responder = (request: SeenRequest) => AssistantMessage | Promise<AssistantMessage>;

export interface PiHarness {
  readonly session: AgentSession;
  readonly faux: FauxProviderRegistration;
  readonly requests: SeenRequest[];
  readonly cwd: string;
  runtime(): Runtime;
  readonly shutdowns: CancelReport[];
  shutdown(): Promise<void>;
  dispose(): void;
}

/** The text of a request's last message (what it answers). */
export function lastText(request: SeenRequest): string {
  const last = request.context.messages.at(-1);
  if (last === undefined) return '';
  if (last.role === 'toolResult') return last.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  if (typeof last.content === 'string') return last.content;
  return last.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/** The bytes of a request as a provider serializes it: system, tools, then messages. */
export function requestBytes(context: Context): string[] {
  return [
    JSON.stringify(context.systemPrompt ?? ''),
    JSON.stringify((context.tools ?? []).map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))),
    ...context.messages.map((m) =>
      JSON.stringify(m.role === 'assistant' ? { role: m.role, content: m.content } : m.role === 'toolResult' ? { role: m.role, toolCallId: m.toolCallId, toolName: m.toolName, content: m.content, isError: m.isError } : { role: m.role, content: m.content }),
    ),
  ];
}

export async function createPiHarness(input: {
  readonly respond: Responder;
  readonly options?: PiSubagentsOptions;
  readonly files?: Readonly<Record<string, string>>;
}): Promise<PiHarness> {
  const cwd = mkdtempSync(join(tmpdir(), 'subagent-actors-pi-'));
  for (const [name, text] of Object.entries(input.files ?? {})) {
    mkdirSync(join(cwd, name, '..'), { recursive: true });
    writeFileSync(join(cwd, name), text);
  }
  const faux = registerFauxProvider();
  const requests: SeenRequest[] = [];
  const step = (context: Context, options: StreamOptions | undefined): AssistantMessage | Promise<AssistantMessage> => {
    // What a provider serializes: tools without their implementation.
    const seen: Context = {
      ...(context.systemPrompt !== undefined ? { systemPrompt: context.systemPrompt } : {}),
      messages: JSON.parse(JSON.stringify(context.messages)) as Context['messages'],
      tools: (context.tools ?? []).map((t) => JSON.parse(JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters })) as NonNullable<Context['tools']>[number]),
    };
    const request = { context: seen, options };
    requests.push(request);
    return input.respond(request);
  };
  faux.setResponses(Array.from({ length: 200 }, () => step));

  let runtime: Runtime | undefined;
  const shutdowns: CancelReport[] = [];
  const authStorage = AuthStorage.inMemory();
  authStorage.setRuntimeApiKey('faux', 'offline');
  const loader = new DefaultResourceLoader({
    cwd,
    agentDir: cwd,
    noExtensions: true,
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    noContextFiles: true,
    extensionFactories: [
      piSubagents({
        ...input.options,
        onRuntime: (r) => {
          runtime = r;
          input.options?.onRuntime?.(r);
        },
        onShutdown: (report) => shutdowns.push(report),
      }),
    ],
  });
  await loader.reload();
  const { session } = await createAgentSession({
    cwd,
    agentDir: cwd,
    model: faux.getModel(),
    authStorage,
    modelRegistry: ModelRegistry.inMemory(authStorage),
    resourceLoader: loader,
    sessionManager: SessionManager.inMemory(cwd),
    settingsManager: SettingsManager.inMemory({ compaction: { enabled: false }, retry: { enabled: false } }),
  });
  // As Pi's modes do at startup: emits session_start to the extensions.
  await session.bindExtensions({});
  return {
    session,
    faux,
    requests,
    cwd,
    shutdowns,
    runtime: () => {
      if (runtime === undefined) throw new Error('the extension has not created its runtime yet');
      return runtime;
    },
    shutdown: async () => {
      await session.extensionRunner.emit({ type: 'session_shutdown', reason: 'quit' });
    },
    dispose: () => {
      session.dispose();
      faux.unregister();
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}

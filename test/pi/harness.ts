/**
 * An in-process Pi 1.x session with the faux provider and the subagents extension, offline and
 * with nothing written outside a temporary folder.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fauxProvider,
  getCurrentSystemPrompt,
  getCurrentTools,
  InMemoryCredentialStore,
  type AssistantMessage,
  type Context,
  type FauxModelDefinition,
  type FauxProviderHandle,
  type Message,
  type SimpleStreamOptions,
} from '@earendil-works/pi-ai';
import { createAgentSession, DefaultResourceLoader, ModelRuntime, SessionManager, SettingsManager, type AgentSession, type ExtensionUIContext } from '@earendil-works/pi-coding-agent';
import { piSubagents, type PiSubagentsOptions } from '../../src/pi/index.js';
import type { CancelReport, Runtime } from '../../src/index.js';

/**
 * One request the faux provider received, as a provider sees it: Pi 1.x carries the system
 * prompt and the tool declarations in the transcript's system messages, which are replayed here
 * into `systemPrompt` and `tools`; `messages` are the rest.
 */
export interface SeenRequest {
  readonly context: Required<Pick<Context, 'systemPrompt' | 'tools'>> & { readonly messages: Message[] };
  /** The model the request went out on, `provider/id`. */
  readonly model: string;
  readonly options: SimpleStreamOptions | undefined;
}

/** Decides the faux model's reply to one request. */
export type Responder = (request: SeenRequest) => AssistantMessage | Promise<AssistantMessage>;

/** What the extension showed in Pi's interface. */
export interface SeenUi {
  readonly notifications: Array<{ readonly message: string; readonly type: string | undefined }>;
}

export interface PiHarness {
  readonly session: AgentSession;
  readonly faux: FauxProviderHandle;
  readonly requests: SeenRequest[];
  /** Resolves with the first request (already seen or still to come) that `match` accepts. */
  request(match: (request: SeenRequest) => boolean): Promise<SeenRequest>;
  readonly ui: SeenUi;
  readonly cwd: string;
  runtime(): Runtime;
  readonly shutdowns: CancelReport[];
  shutdown(): Promise<void>;
  dispose(): void;
}

/** The text of a request's last message (what it answers). */
export function lastText(request: SeenRequest): string {
  const last = request.context.messages.at(-1);
  if (last === undefined || last.role === 'system') return '';
  if (last.role === 'toolResult') return last.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  if (typeof last.content === 'string') return last.content;
  return last.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/** The bytes of a request as a provider serializes it: system prompt, tools, then messages. */
export function requestBytes(context: SeenRequest['context']): string[] {
  return [
    JSON.stringify(context.systemPrompt),
    JSON.stringify(context.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))),
    ...context.messages.map((m) =>
      JSON.stringify(
        m.role === 'assistant'
          ? { role: m.role, content: m.content }
          : m.role === 'toolResult'
            ? { role: m.role, toolCallId: m.toolCallId, toolName: m.toolName, content: m.content, isError: m.isError }
            : { role: m.role, content: m.content },
      ),
    ),
  ];
}

/** A recording stand-in for Pi's interface: what reaches it is kept, dialogs answer nothing. */
function recordingUi(seen: SeenUi): Partial<ExtensionUIContext> {
  return {
    notify: (message, type) => seen.notifications.push({ message, type }),
  };
}

export async function createPiHarness(input: {
  readonly respond: Responder;
  readonly options?: PiSubagentsOptions;
  readonly files?: Readonly<Record<string, string>>;
  /** Models the faux provider serves besides its default one (the session's). */
  readonly models?: readonly FauxModelDefinition[];
  /** Pi settings (settings.json), in memory. */
  readonly settings?: Record<string, unknown>;
  /** The Pi session's active tools (`pi --tools`); Pi's default without it. */
  readonly tools?: readonly string[];
}): Promise<PiHarness> {
  const cwd = mkdtempSync(join(tmpdir(), 'subagent-actors-pi-'));
  for (const [name, text] of Object.entries(input.files ?? {})) {
    mkdirSync(join(cwd, name, '..'), { recursive: true });
    writeFileSync(join(cwd, name), text);
  }
  const faux = fauxProvider({ models: [{ id: 'faux-1' }, ...(input.models ?? [])], tokensPerSecond: 1_000_000 });
  const requests: SeenRequest[] = [];
  const waiting = new Set<{ match: (request: SeenRequest) => boolean; resolve: (request: SeenRequest) => void }>();
  const request = (match: (request: SeenRequest) => boolean): Promise<SeenRequest> => {
    const seen = requests.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => waiting.add({ match, resolve }));
  };
  faux.setResponses(
    Array.from({ length: 200 }, () => (transcript: { messages: Message[] }, options: SimpleStreamOptions | undefined, _state: unknown, model: { provider: string; id: string }) => {
      // What a provider serializes: the replayed prompt, tool declarations, and the messages.
      const messages = JSON.parse(JSON.stringify(transcript.messages)) as Message[];
      const request: SeenRequest = {
        context: {
          systemPrompt: getCurrentSystemPrompt(messages),
          tools: getCurrentTools(messages).map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
          messages: messages.filter((m) => m.role !== 'system'),
        },
        model: `${model.provider}/${model.id}`,
        options,
      };
      requests.push(request);
      for (const waiter of waiting) {
        if (!waiter.match(request)) continue;
        waiting.delete(waiter);
        waiter.resolve(request);
      }
      return input.respond(request);
    }),
  );

  let runtime: Runtime | undefined;
  const shutdowns: CancelReport[] = [];
  const ui: SeenUi = { notifications: [] };
  const settingsManager = SettingsManager.inMemory({ compaction: { enabled: false }, retry: { enabled: false }, ...input.settings });
  const loader = new DefaultResourceLoader({
    cwd,
    agentDir: cwd,
    settingsManager,
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
  const modelRuntime = await ModelRuntime.create({ credentials: new InMemoryCredentialStore(), modelsPath: null, allowModelNetwork: false, refreshOnCreate: false });
  modelRuntime.registerNativeProvider(faux.provider);
  await modelRuntime.setRuntimeApiKey(faux.provider.id, 'offline');
  const { session } = await createAgentSession({
    cwd,
    agentDir: cwd,
    model: faux.getModel(),
    thinkingLevel: 'off',
    modelRuntime,
    resourceLoader: loader,
    sessionManager: SessionManager.inMemory(cwd),
    settingsManager,
    ...(input.tools ? { tools: [...input.tools] } : {}),
  });
  // As Pi's modes do at startup: binds the interface and emits session_start to the extensions.
  await session.bindExtensions({ uiContext: recordingUi(ui) as ExtensionUIContext });
  return {
    session,
    faux,
    requests,
    request,
    ui,
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
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}

/**
 * The package as another project consumes it: build it, `npm pack` it, install the tarball
 * into a scratch project beside its own zod 3, xstate, the Pi coding agent and AI SDK 7 (`ai` 7,
 * `@ai-sdk/anthropic` 4), type-check the README's examples there (strict, NodeNext, library
 * types checked too) and run them. Then again with xstate at the lowest version the peer range
 * allows. The Pi extension runs in a Pi session (pi-ai's faux provider, offline) with each
 * supported Pi major at the tested version and at the lowest one its peer range admits.
 * `aiSdkModel` runs a session with the real `@ai-sdk/anthropic` against the provider stand-in
 * (on 127.0.0.1, in this process), and with `ai/test`'s mock model.
 *
 * Installs prefer npm's cache (`npm ci` fills it with every version used here but the lowest
 * xstate, fetched once). Slow steps are processes, so the timeout is generous; nothing here
 * measures time.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, userTexts, type RecordedRequest, type WireReply } from '../wire/stand-in/index.js';
import { exampleModule, readmeExamples } from './readme-examples.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  readonly version: string;
  readonly peerDependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
};
/** The lowest xstate the peer range admits (`^5.33.0` → `5.33.0`). */
const LOWEST_XSTATE = lowestOf('xstate');
/** The Pi packages whose peer ranges the extension names, installed together at one version. */
const PI_PACKAGES = ['@earendil-works/pi-coding-agent', '@earendil-works/pi-ai', '@earendil-works/pi-tui'] as const;
/** The AI SDK 7 packages a consumer of `subagent-actors/ai-sdk` installs, at the tested versions. */
const AI_SDK_PACKAGES = ['ai', '@ai-sdk/anthropic', '@ai-sdk/provider'] as const;
/** The lowest Pi the peer range admits (`^1.3.0` → `1.3.0`). */
const LOWEST_PI = lowestOf(PI_PACKAGES[0]);

/** The lowest version a `^x.y.z` peer range admits. */
function lowestOf(name: string): string | undefined {
  return /^\^?(\d+\.\d+\.\d+)$/.exec(pkg.peerDependencies[name] ?? '')?.[1];
}
const TIMEOUT = 900_000;

// TypeScript 7 (the current release; the plain `typescript` package is 6.0, for typescript-eslint).
const tsc = join(repo, 'node_modules/typescript-7/bin/tsc');
const npm = (args: readonly string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline'], { cwd, maxBuffer: 1 << 24 });

let work: string;
let project: string;
let packedFiles: string[] = [];
const skipped: string[] = [];
const written: Array<{ file: string; code: string; module: string }> = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'subagent-actors-consumer-'));
  // Build and pack from a staging copy, so the repository's own dist/ is left alone.
  const stage = join(work, 'stage');
  mkdirSync(stage);
  for (const file of ['package.json', 'README.md', 'LICENSE', 'docs', 'examples']) cpSync(join(repo, file), join(stage, file), { recursive: true });
  await run(process.execPath, [tsc, '-p', join(repo, 'tsconfig.build.json'), '--outDir', join(stage, 'dist')], { cwd: repo });
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: stage, maxBuffer: 1 << 24 });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packedFiles = packed!.files.map((f) => f.path);

  project = join(work, 'consumer');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies: {
        'subagent-actors': `file:${join(work, packed!.filename)}`,
        xstate: pkg.devDependencies['xstate'],
        // A host on zod 3: its tool schemas must type-check and run (the runtime has its own zod 4).
        zod: pkg.devDependencies['zod3']!.replace(/^npm:zod@/, ''),
        '@types/node': pkg.devDependencies['@types/node'],
        ...Object.fromEntries([...PI_PACKAGES, ...AI_SDK_PACKAGES].map((name) => [name, pkg.devDependencies[name]])),
      },
    }),
  );
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        strict: true,
        skipLibCheck: false,
        rootDir: 'src',
        outDir: 'out',
      },
      include: ['src'],
    }),
  );
  const exports = new Map<string, string>();
  for (const [entry, module] of [
    ['subagent-actors', await import('../../src/index.js')],
    ['subagent-actors/testing', await import('../../src/testing/index.js')],
    ['subagent-actors/machine', await import('../../machines/index.js')],
  ] as const) {
    for (const name of Object.keys(module)) if (!exports.has(name)) exports.set(name, entry);
  }
  for (const example of readmeExamples(readFileSync(join(repo, 'README.md'), 'utf8'))) {
    if (example.skip !== undefined) skipped.push(`README.md:${example.line} ${example.skip}`);
    else written.push({ file: `readme-${example.line}`, code: example.code, module: exampleModule(example.code, exports) });
  }
  for (const example of written) writeFileSync(join(project, 'src', `${example.file}.ts`), example.module);
  writeFileSync(join(project, 'src', 'pi-session.ts'), PI_SESSION);
  writeFileSync(join(project, 'src', 'ai-sdk-session.ts'), AI_SDK_SESSION);
  await npm(['install', '--no-package-lock'], project);
}, TIMEOUT);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, TIMEOUT);


/**
 * Type-checks and builds the consumer project. Library types are checked too (no
 * `skipLibCheck`), but only this package's and the consumer's own files count: Pi's published
 * declarations do not pass a strict Node-only check themselves (JSON imports without `type`
 * attributes, `@google/genai` naming DOM types), which is not this package's to fix. tsc still
 * emits the build when it reports errors.
 */
async function compileConsumer(): Promise<string[]> {
  try {
    await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, maxBuffer: 1 << 24 });
    return [];
  } catch (error) {
    const output = (error as { stdout?: string }).stdout ?? String(error);
    const ours = output.split('\n').filter((line) => /error TS\d+/.test(line) && (!line.startsWith('node_modules/') || line.startsWith('node_modules/subagent-actors/')));
    return ours.length === 0 && /error TS\d+/.test(output) ? [] : [`tsc: ${ours.length > 0 ? ours.join('\n') : output}`];
  }
}

/** Type-checks and builds the examples, then runs each; returns every failure found. */
async function checkExamples(): Promise<string[]> {
  const failures: string[] = [...(await compileConsumer())];
  if (failures.length > 0) return failures;
  for (const example of written) {
    try {
      const { stdout } = await run(process.execPath, [join('out', `${example.file}.js`)], { cwd: project, timeout: 120_000, maxBuffer: 1 << 24 });
      // `console.log(...); // expected output` in an example is a claim about what it prints.
      for (const [, claim] of example.code.matchAll(/^console\.log\(.*\);\s*\/\/\s*(?!\{)(\S.*)$/gm)) {
        if (!stdout.includes(claim!.trim())) failures.push(`${example.file}: printed ${JSON.stringify(stdout)}, README says ${JSON.stringify(claim)}`);
      }
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      failures.push(`${example.file} failed: ${(stderr ?? String(error)).slice(0, 2000)}`);
    }
  }
  return failures;
}

describe('the packed package in a consumer project', () => {
  it('ships the built entries, README, LICENSE, docs and examples, and no source maps or sources', () => {
    expect(packedFiles).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/machines/index.js', 'docs/architecture.md', 'examples/pi/subagents.ts']));
    // The examples the README links to are TypeScript by design; nothing else is a source.
    expect(packedFiles.filter((f) => f.endsWith('.map') || (f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('examples/')))).toEqual([]);
  });

  it('compiles every README example that needs no provider, the Pi ones too', () => {
    expect(written.length).toBeGreaterThanOrEqual(5);
    expect(written.some((example) => example.code.includes("from 'subagent-actors/pi'"))).toBe(true);
    expect(skipped.map((s) => s.replace(/^README\.md:\d+ /, ''))).toEqual(expect.arrayContaining([expect.stringMatching(/^imports @ai-sdk\/anthropic/)]));
  });

  it(
    'loads neither Ajv nor yaml with the main entry (they load when a schema or a definition is first read)',
    async () => {
      const probe = [
        "import { createRequire } from 'node:module';",
        "await import('subagent-actors');",
        'console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));',
      ].join('\n');
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', probe], { cwd: project, maxBuffer: 1 << 24 });
      const loaded = (JSON.parse(stdout) as string[]).map((file) => /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(file)?.[1]);
      expect(loaded).not.toContain('ajv');
      expect(loaded).not.toContain('yaml');
    },
    TIMEOUT,
  );

  it(
    'type-checks and runs the README examples with the tested xstate and a zod 3 host',
    async () => {
      expect(await checkExamples()).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'runs the Pi extension in a Pi session: the session delegates with Agent and reads the result',
    async () => {
      expect(await runPiSession()).toMatch(/^the subagent said: .*"result":"SUBAGENT-ANSWER"/);
    },
    TIMEOUT,
  );

  it(
    'runs aiSdkModel with AI SDK 7: the real @ai-sdk/anthropic against the stand-in (generated and streamed), and ai/test\'s mock',
    async () => {
      expect(await compileConsumer()).toEqual([]);
      const standIn = await startStandIn({ respond: delegatingSession });
      try {
        const { stdout } = await run(process.execPath, [join('out', 'ai-sdk-session.js')], { cwd: project, timeout: 120_000, maxBuffer: 1 << 24, env: { ...process.env, STAND_IN_URL: standIn.baseURL } });
        const lines = stdout.trim().split('\n');
        expect(lines[0]).toMatch(/^generated: the subagent said: .*SUBAGENT-ANSWER/);
        expect(lines[1]).toMatch(/^streamed \d+ deltas: the subagent said: .*SUBAGENT-ANSWER/);
        expect(Number(/^streamed (\d+)/.exec(lines[1]!)?.[1])).toBeGreaterThan(1);
        expect(lines[2]).toBe('mock: from the mock');
        // Each session: the root's first step, the subagent's answer, the root's answer.
        const requests = standIn.requestsTo('anthropic-messages');
        expect(requests.map((r) => r.stream)).toEqual([false, false, false, true, true, true]);
        expect(requests.every((r) => r.headers['x-api-key'] === 'offline')).toBe(true);
      } finally {
        await standIn.close();
      }
    },
    TIMEOUT,
  );

  it(
    'type-checks and runs them with xstate at the lowest supported version',
    async () => {
      expect(LOWEST_XSTATE).toBeDefined();
      await npm(['install', '--no-package-lock', `xstate@${LOWEST_XSTATE!}`], project);
      const installed = JSON.parse(readFileSync(join(project, 'node_modules/xstate/package.json'), 'utf8')) as { version: string };
      expect(installed.version).toBe(LOWEST_XSTATE);
      expect(await checkExamples()).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'type-checks the examples and runs the Pi extension with Pi at the lowest version its peer range admits',
    async () => {
      expect(LOWEST_PI).toBeDefined();
      await npm(['install', '--no-package-lock', ...PI_PACKAGES.map((name) => `${name}@${LOWEST_PI!}`)], project);
      for (const name of PI_PACKAGES) {
        const installed = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
        expect(installed.version).toBe(LOWEST_PI);
      }
      expect(await checkExamples()).toEqual([]);
      expect(await runPiSession()).toMatch(/^the subagent said: .*"result":"SUBAGENT-ANSWER"/);
    },
    TIMEOUT,
  );
});

/** Builds and runs the Pi session script with HOME in a scratch folder. */
async function runPiSession(): Promise<string> {
  expect(await compileConsumer()).toEqual([]);
  const home = mkdtempSync(join(work, 'home-'));
  const { stdout } = await run(process.execPath, [join('out', 'pi-session.js')], { cwd: project, timeout: 120_000, maxBuffer: 1 << 24, env: { ...process.env, HOME: home, PI_OFFLINE: '1' } });
  return stdout;
}

/** The stand-in's script for {@link AI_SDK_SESSION}: the root delegates, the subagent answers, the root reports. */
function delegatingSession(request: RecordedRequest): WireReply {
  const messages = Array.isArray(request.body['messages']) ? (request.body['messages'] as Array<{ content?: unknown }>) : [];
  const last = messages.at(-1)?.content;
  const toolResult = Array.isArray(last) ? (last as Array<{ type?: string; content?: unknown }>).find((block) => block.type === 'tool_result') : undefined;
  if (toolResult !== undefined) return { text: `the subagent said: ${JSON.stringify(toolResult.content)}` };
  if (userTexts(request).some((text) => text.includes('Say the answer'))) return { text: 'SUBAGENT-ANSWER' };
  return { toolCalls: [{ name: 'Agent', arguments: { task_name: 'probe', message: 'Say the answer' } }] };
}

/**
 * aiSdkModel as an AI SDK 7 user writes it: the real Anthropic provider pointed at the stand-in
 * (a session that delegates, once generated and once streamed), then `ai/test`'s mock model.
 */
const AI_SDK_SESSION = `import { createAnthropic } from '@ai-sdk/anthropic';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { createRuntime } from 'subagent-actors';
import { aiSdkModel } from 'subagent-actors/ai-sdk';

const anthropic = createAnthropic({ baseURL: process.env['STAND_IN_URL'], apiKey: 'offline' });
const claude: LanguageModelV4 = anthropic('claude-sonnet-4-5');

const generated = await createRuntime({ model: aiSdkModel(claude, { cacheHints: true }) }).prompt('Delegate the answer');
console.log(\`generated: \${generated.text}\`);

const runtime = createRuntime({ model: aiSdkModel(claude, { cacheHints: true }) });
const watching = new AbortController();
let deltas = 0;
const reading = (async () => {
  for await (const event of runtime.events({ signal: watching.signal })) if (event.type === 'text-delta' && event.path === '/root') deltas++;
})();
const streamed = await runtime.prompt('Delegate the answer');
watching.abort();
await reading;
console.log(\`streamed \${deltas} deltas: \${streamed.text}\`);

const mock = new MockLanguageModelV4({
  doGenerate: {
    content: [{ type: 'text', text: 'from the mock' }],
    finishReason: { unified: 'stop', raw: 'end_turn' },
    usage: { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } },
    warnings: [],
  },
});
const mocked = await createRuntime({ model: aiSdkModel(mock) }).prompt('Hello');
console.log(\`mock: \${mocked.text}\`);
`;

/**
 * A Pi session with the extension, as a consumer writes one: pi-ai's faux provider answers
 * offline; the session calls Agent, the subagent answers, and the session reads its result.
 */
const PI_SESSION = `import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fauxAssistantMessage, fauxProvider, fauxToolCall, InMemoryCredentialStore } from '@earendil-works/pi-ai';
import { createAgentSession, DefaultResourceLoader, ModelRuntime, SessionManager, SettingsManager } from '@earendil-works/pi-coding-agent';
import { piSubagents } from 'subagent-actors/pi';

const cwd = mkdtempSync(join(tmpdir(), 'pi-consumer-'));
const faux = fauxProvider({ tokensPerSecond: 1_000_000 });
faux.setResponses([
  fauxAssistantMessage([fauxToolCall('Agent', { task_name: 'probe', message: 'Say the answer' }, { id: 'c1' })], { stopReason: 'toolUse' }),
  fauxAssistantMessage('SUBAGENT-ANSWER'),
  (context) => {
    const last = context.messages.at(-1);
    const text = last?.role === 'toolResult' ? last.content.map((b) => (b.type === 'text' ? b.text : '')).join('') : '';
    return fauxAssistantMessage(\`the subagent said: \${text}\`);
  },
]);
const settingsManager = SettingsManager.inMemory({ compaction: { enabled: false }, retry: { enabled: false } });
const loader = new DefaultResourceLoader({
  cwd, agentDir: cwd, settingsManager, noExtensions: true, noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true,
  extensionFactories: [piSubagents()],
});
await loader.reload();
const modelRuntime = await ModelRuntime.create({ credentials: new InMemoryCredentialStore(), modelsPath: null, allowModelNetwork: false, refreshOnCreate: false });
modelRuntime.registerNativeProvider(faux.provider);
await modelRuntime.setRuntimeApiKey(faux.provider.id, 'offline');
const { session } = await createAgentSession({
  cwd, agentDir: cwd, model: faux.getModel(), thinkingLevel: 'off', modelRuntime, resourceLoader: loader,
  sessionManager: SessionManager.inMemory(cwd), settingsManager,
});
await session.bindExtensions({});
await session.prompt('Delegate the answer');
console.log(session.getLastAssistantText());
session.dispose();
`;

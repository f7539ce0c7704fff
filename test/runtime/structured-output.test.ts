import { describe, expect, it } from 'vitest';
import { MockLanguageModelV4 } from 'ai/test';
import { scriptedModel } from '../../src/model/scripted.js';
import { aiSdkModel } from '../../src/model/ai-sdk.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { parseDefinition } from '../../src/policy/parse-definition.js';
import { serializeHead } from '../../src/request/serialize.js';
import { DefinitionError } from '../../src/policy/definition-error.js';
import type { PathScript } from '../../src/model/script.js';
import type { RuntimeOptions } from '../../src/runtime/types.js';
import { ctx, hello } from '../model/helpers.js';

const finding = {
  type: 'object',
  properties: { file: { type: 'string' }, line: { type: 'integer', minimum: 1 } },
  required: ['file', 'line'],
  additionalProperties: false,
} as const;

const spawnCall = (extra: Record<string, string> = {}) => ({
  toolCalls: [{ id: 'c1', name: 'Agent', arguments: { task_name: 'find', message: 'Where does the parser fail?', ...extra } }],
});

async function session(subReplies: PathScript, options: Partial<RuntimeOptions>, callExtra = {}) {
  const model = scriptedModel({ '/root': { 0: [spawnCall(callExtra), { text: 'thanks' }] }, '/root/find': subReplies });
  const rt = createRuntime({ model, ...options });
  rt.prompt('go');
  await rt.whenQuiet();
  const toolResult = model.calls
    .filter((c) => c.agentPath === '/root')
    .flatMap((c) => c.request.messages.toArray())
    .find((e) => e.kind === 'tool_result' && e.callId === 'c1');
  return { rt, model, seen: toolResult?.kind === 'tool_result' ? toolResult.content : '' };
}

async function run(subReplies: PathScript, options: Partial<RuntimeOptions> = { spawnPolicy: () => ({ output: finding }) }, callExtra = {}) {
  const ran = await session(subReplies, options, callExtra);
  return { ...ran, result: await ran.rt.result('/root/find') };
}

describe('structured output', () => {
  it('a valid answer becomes the result value, and the parent model sees it as JSON', async () => {
    const { result, seen, model } = await run({ 0: [{ text: '{"file":"src/parser.ts","line":88}' }] });
    expect(result).toMatchObject({ status: 'completed', value: { file: 'src/parser.ts', line: 88 } });
    expect(JSON.parse(seen)).toMatchObject({ agent_id: '/root/find', status: 'completed', stop_reason: 'completed', result: { file: 'src/parser.ts', line: 88 } });
    // The schema is told in the task, after the head: the head stays the parent's.
    const first = model.calls.find((c) => c.agentPath === '/root/find')!.request;
    const task = first.messages.toArray().at(-1);
    expect(task?.kind === 'user' && task.text).toContain('"required":["file","line"]');
    expect(serializeHead(first.system)).toBe(serializeHead(model.calls[0]!.request.system));
    expect(first.output).toEqual(finding);
  });

  it('accepts an answer in a ```json fence', async () => {
    const { result } = await run({ 0: [{ text: '```json\n{"file":"a.ts","line":3}\n```' }] });
    expect(result.value).toEqual({ file: 'a.ts', line: 3 });
  });

  it('an invalid answer gets one repair request naming what is wrong; a valid second answer completes', async () => {
    const { result, model } = await run({ 0: [{ text: '{"file":"a.ts","line":0}' }, { text: '{"file":"a.ts","line":7}' }] });
    expect(result).toMatchObject({ status: 'completed', value: { file: 'a.ts', line: 7 } });
    const repair = model.calls.filter((c) => c.agentPath === '/root/find')[1]!.request.messages.toArray().at(-1);
    expect(repair?.kind === 'user' && repair.text).toMatch(/\/line must be >= 1/);
  });

  it('a second invalid answer fails the result as invalid_output, after exactly two requests', async () => {
    const { result, model, seen } = await run({ 0: [{ text: 'It is in the parser.' }, { text: '{"file":"a.ts"}' }, { text: '{"file":"a.ts","line":1}' }] });
    expect(result).toMatchObject({ status: 'failed', stopReason: 'invalid_output' });
    expect(result.value).toBeUndefined();
    expect(result.error).toContain("must have required property 'line'");
    expect(model.calls.filter((c) => c.agentPath === '/root/find')).toHaveLength(2);
    expect(JSON.parse(seen)).toMatchObject({ status: 'failed', stop_reason: 'invalid_output' });
  });

  it('a role\'s front matter `output` applies when the model\'s Agent call names the role', async () => {
    const role = parseDefinition(
      ['---', 'name: locator', 'description: Finds code.', 'output:', '  type: object', '  properties:', '    file: { type: string }', '  required: [file]', '---', 'Find it.'].join('\n'),
      { file: 'locator.md', scope: 'project' },
    );
    expect(role.output).toEqual({ type: 'object', properties: { file: { type: 'string' } }, required: ['file'] });
    const { result } = await run({ 0: [{ text: '{"file":"x.ts"}' }] }, { roles: [role] }, { role: 'locator' });
    expect(result.value).toEqual({ file: 'x.ts' });
    const plain = await run({ 0: [{ text: 'plain text' }] }, {});
    expect(plain.result.value).toBeUndefined();
    expect(plain.result.status).toBe('completed');
  });

  it('a host spawn option replaces the role\'s schema; runtime.spawn takes it too', async () => {
    const model = scriptedModel({ '/root': { 0: [{ text: 'idle' }] }, '/root/n': { 0: [{ text: '42' }] } });
    const rt = createRuntime({ model });
    rt.prompt('q');
    await rt.whenQuiet();
    const handle = await rt.spawn('/root', { task_name: 'n', message: 'a number' }, { output: { type: 'integer' } });
    expect((await handle.result).value).toBe(42);
  });

  it('a bad schema is a clear error that holds nothing: at spawn, and in a role file', async () => {
    const { seen, rt } = await session({ 0: [{ text: 'x' }] }, { spawnPolicy: () => ({ output: { type: 'nonsense' } }) });
    expect(seen).toMatch(/invalid_output_schema/);
    expect(rt.slotsInUse).toBe(0);
    expect(() => parseDefinition('---\nname: r\ndescription: d\noutput: 5\n---\n', { file: 'r.md', scope: 'p' })).toThrow(DefinitionError);
  });

  it('the AI SDK adapter sends the schema as the native structured mode only when asked to', async () => {
    const make = () =>
      new MockLanguageModelV4({
        doGenerate: async () => ({
          content: [{ type: 'text', text: '{}' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
          warnings: [],
        }),
      });
    const native = make();
    await aiSdkModel(native, { nativeOutput: true }).sample({ ...hello(), output: finding }, ctx('/root/x'));
    expect(native.doGenerateCalls[0]?.responseFormat).toEqual({ type: 'json', schema: finding });
    // By default the schema is in the task only, so the head stays the parent's.
    const byDefault = make();
    await aiSdkModel(byDefault).sample({ ...hello(), output: finding }, ctx('/root/x'));
    expect(byDefault.doGenerateCalls[0]?.responseFormat).toBeUndefined();
    const off = make();
    await aiSdkModel(off, { nativeOutput: false }).sample({ ...hello(), output: finding }, ctx('/root/x'));
    expect(off.doGenerateCalls[0]?.responseFormat).toBeUndefined();
    const plain = make();
    await aiSdkModel(plain).sample(hello(), ctx('/root/x'));
    expect(plain.doGenerateCalls[0]?.responseFormat).toBeUndefined();
  });
});

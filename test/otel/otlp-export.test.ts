/**
 * One export over OTLP/HTTP: the demo, run with `--otlp URL`, sends its trace to a receiver
 * this test runs on 127.0.0.1, which decodes the OTLP JSON and checks the spans.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { DEMO_PATHS } from '../../src/cli/demo-script.js';
import { parseDemoArgs } from '../../src/cli/args.js';
import { manualClock } from '../../src/testing/index.js';

interface OtlpValue {
  readonly stringValue?: string;
  readonly intValue?: string | number;
  readonly boolValue?: boolean;
  readonly arrayValue?: { readonly values: readonly OtlpValue[] };
}
interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: readonly { readonly key: string; readonly value: OtlpValue }[];
  readonly events?: readonly { readonly name: string }[];
}
interface OtlpRequest {
  readonly resourceSpans: readonly { readonly scopeSpans: readonly { readonly scope: { readonly name: string }; readonly spans: readonly OtlpSpan[] }[] }[];
}

const requests: { contentType: string | undefined; body: OtlpRequest }[] = [];
const server = createServer((req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
    requests.push({ contentType: req.headers['content-type'], body: JSON.parse(text) as OtlpRequest });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const attr = (span: OtlpSpan, key: string): OtlpValue | undefined => span.attributes.find((a) => a.key === key)?.value;
const sink = () => {
  const chunks: string[] = [];
  return { sink: { isTTY: false, write: (t: string) => (chunks.push(t), true) }, text: () => chunks.join('') };
};

describe('demo --otlp URL', () => {
  it('sends the session trace over OTLP/HTTP, one trace with every subagent under its Agent call', async () => {
    const out = sink();
    const err = sink();
    const code = await runCli(['--latency', '0', '--otlp', url], { out: out.sink, err: err.sink, clock: manualClock() });
    expect(code, err.text()).toBe(0);
    expect(err.text()).toContain(`tracing the session to ${url}`);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests[0]!.contentType).toMatch(/json/);
    const spans = requests.flatMap((r) => r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
    const scopes = new Set(requests.flatMap((r) => r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.map((ss) => ss.scope.name))));
    expect([...scopes]).toEqual(['subagent-actors-demo']);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const agents = spans.filter((s) => attr(s, 'gen_ai.operation.name')?.stringValue === 'invoke_agent' && attr(s, 'subagent_actors.turn') === undefined);
    const paths = agents.map((s) => attr(s, 'gen_ai.agent.id')?.stringValue).sort();
    expect(paths).toEqual(['/root', ...Object.values(DEMO_PATHS)].sort());
    for (const span of agents) {
      const path = attr(span, 'gen_ai.agent.id')!.stringValue!;
      if (path === '/root') {
        expect(span.parentSpanId ?? '').toBe('');
        continue;
      }
      const call = byId.get(span.parentSpanId!);
      expect(call?.name, path).toBe('execute_tool Agent');
      expect(attr(call!, 'gen_ai.tool.call.id')?.stringValue).toEqual(expect.any(String));
      expect(span.kind).toBe(1); // SPAN_KIND_INTERNAL in OTLP's numbering
    }
    const chat = spans.find((s) => s.name.startsWith('chat '))!;
    expect(chat.kind).toBe(3); // SPAN_KIND_CLIENT
    expect(Number(attr(chat, 'gen_ai.usage.input_tokens')?.intValue)).toBeGreaterThan(0);
    const bench = agents.find((s) => attr(s, 'gen_ai.agent.id')?.stringValue === DEMO_PATHS.bench)!;
    expect(bench.events?.map((e) => e.name)).toContain('subagent_actors.cancelled');
  });

  it('refuses a value that is not an http(s) URL', () => {
    expect(() => parseDemoArgs(['--otlp', 'localhost:4318'])).toThrow(/--otlp takes an http\(s\) URL/);
  });
});

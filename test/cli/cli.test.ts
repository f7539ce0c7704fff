import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDemoArgs } from '../../src/cli/args.js';
import { runCli } from '../../src/cli/main.js';

function collector() {
  const chunks: string[] = [];
  return { sink: { isTTY: false, write: (text: string) => (chunks.push(text), true) }, text: () => chunks.join('') };
}

describe('demo command', () => {
  it('parses its flags', () => {
    expect(parseDemoArgs([])).toEqual({ help: false, color: true, inspect: false, view: false, record: undefined, speed: 1, live: undefined });
    expect(parseDemoArgs(['--no-color', '--inspect', '--record', 'trace.jsonl', '--latency', '0.5'])).toEqual({
      help: false,
      color: false,
      inspect: true,
      view: false,
      record: 'trace.jsonl',
      speed: 0.5,
      live: undefined,
    });
    expect(parseDemoArgs(['--view']).view).toBe(true);
    expect(() => parseDemoArgs(['--latency', 'fast'])).toThrow(/--latency/);
    expect(() => parseDemoArgs(['--bogus'])).toThrow(/bogus/);
  });

  it('--help prints usage and exits 0; a bad flag exits 2 with usage', async () => {
    const out = collector();
    const err = collector();
    expect(await runCli(['--help'], { out: out.sink, err: err.sink })).toBe(0);
    expect(out.text()).toMatch(/^Usage: npm run demo/);
    expect(out.text()).toContain('--record FILE');
    expect(await runCli(['--nope'], { out: out.sink, err: err.sink })).toBe(2);
    expect(err.text()).toContain("Unknown option '--nope'");
  });

  it('runs the session, prints the answer and every result, and records a trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-trace-'));
    try {
      const file = join(dir, 'trace.jsonl');
      const out = collector();
      const err = collector();
      expect(await runCli(['--latency', '0', '--record', file], { out: out.sink, err: err.sink })).toBe(0);
      const text = out.text();
      expect(text).toContain('The root agent answers the person:');
      expect(text).toContain('Results: 6 subagents, one result each');
      expect(text).toMatch(/\/root\/release-notes\n {2}no role · context all · completed · stop closed · [\d,]+ ms · 2 turns/);
      expect(text).toContain('slots in use at the end: 0');
      expect(err.text()).toContain('recording the inspection trace');
      const records = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; actor: string });
      expect(records.some((r) => r.kind === 'actor' && r.actor === '/root/benchmarks/bench-runner')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an unusable --record target is a note, not a failure', async () => {
    const out = collector();
    const err = collector();
    expect(await runCli(['--latency', '0', '--record', join(tmpdir(), 'no-such-dir-for-demo', 'x', 't.jsonl')], { out: out.sink, err: err.sink })).toBe(0);
    expect(err.text()).toMatch(/recording is unavailable .*was not written/);
  });
});

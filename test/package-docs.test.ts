/**
 * What the published package and its README promise a reader (#30 item 7): the tarball holds
 * the docs and examples the README links to, and the README names what a user needs that the
 * code does not say by itself.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ZERO_USAGE, type ModelResponse, type ModelFunction } from '../machines/index.js';

const read = (file: string): string => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const pkg = JSON.parse(read('package.json')) as { files: readonly string[] };
const readme = read('README.md');

describe('the package and its README', () => {
  it('ships every docs/ and examples/ path the README links to', () => {
    const linked = new Set([...readme.matchAll(/\((?:\.\/)?((?:docs|examples)\/[^)#\s]*)\)|`((?:docs|examples)\/[^`\s]+)`/g)].map((m) => (m[1] ?? m[2])!));
    expect(linked.size).toBeGreaterThan(0);
    const unshipped = [...linked].filter((path) => !pkg.files.some((entry) => path === entry || path.startsWith(`${entry.replace(/\/$/, '')}/`)));
    expect(unshipped).toEqual([]);
  });

  it('says the Postgres store needs @types/pg for TypeScript', () => {
    const section = readme.slice(readme.indexOf('### Durable sessions'), readme.indexOf('### Traces in OpenTelemetry'));
    expect(section).toContain('subagent-actors/postgres');
    expect(section).toContain('@types/pg');
  });

  it("says a scripted model answers a script miss with placeholder text unless it is strict", () => {
    expect(readme).toMatch(/scriptedModel\([^)]*\{ strict: true \}\)/);
  });

  it("describes the embedding model function's reply as ModelResponse, usage and tool-call ids included", () => {
    const section = readme.slice(readme.indexOf('### Embedding the machine'));
    expect(section).not.toMatch(/returns `\{ text, toolCalls \}`/);
    expect(section).toContain('{ text, toolCalls, usage }');
    const reply = { text: '', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'a' } }], usage: ZERO_USAGE } satisfies ModelResponse;
    expectTypeOf<ReturnType<ModelFunction>>().toEqualTypeOf<ModelResponse | Promise<ModelResponse>>();
    expectTypeOf(reply).toMatchTypeOf<ModelResponse>();
  });
});

describe('docs/path-tests.md', () => {
  it('states no hand-typed path or transition counts', () => {
    const doc = read('docs/path-tests.md');
    expect(doc).not.toMatch(/\d+\/\d+ transitions/);
    expect(doc).not.toMatch(/about [\d,]+ (paths|tests|with the default)/);
  });
});

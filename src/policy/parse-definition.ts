/**
 * Parsing one agent definition file: Markdown with YAML front matter.
 *
 * The format is the one Claude Code (`.claude/agents/*.md`) and Pi use: front matter with
 * `name` and `description` plus optional settings, then the instructions as the body.
 * Every error names the file, the line and the key so a user can fix the file at once;
 * unknown keys are kept and reported, never fatal, because files written for other tools
 * carry keys (`color`, `permissionMode`, …) this library has no use for.
 */
import { checkBudget, type Budget } from './budget.js';
import { basename } from 'node:path';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { errorText } from '../dialogue/error-text.js';
import type { ContextMode, ContextSpec } from '../context/types.js';
import { contextModeOf, parseContextSpec } from '../context/parse.js';
import type { Effort, JsonObject } from '../request/types.js';
import { checkOutputSchema } from '../request/output-schema.js';
import { checkRetryPolicy, type RetryPolicy } from './retry-policy.js';
import type { Delivery, Lifetime } from '../request/lifetime.js';
import type { AgentDefinition, DefinitionSource } from './definition.js';
import { isValidAgentName } from './definition.js';
import { DefinitionError, formatLocated } from './definition-error.js';
import { splitFrontMatter } from './front-matter.js';
import { PERMISSION_MODES } from './permission-mode.js';
import { quoteProblemValues } from './yaml-fallback.js';
import { splitToolList } from './tool-name.js';

let yamlModule: typeof Yaml | undefined;
/** `yaml` is loaded when the first definition is parsed: it is costly to load, and many hosts define no roles. */
const yamlLib = (): typeof Yaml => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml);

/** Where the text came from, plus an optional sink for non-fatal findings. */
export interface ParseDefinitionOptions extends DefinitionSource {
  /**
   * Receives one located message per non-fatal finding (unknown keys, YAML warnings),
   * formatted `file:line: …`. Loaders collect these into their warnings.
   */
  readonly onWarning?: (message: string) => void;
}

/** The front matter keys this library reads, in the order documentation lists them. */
export const KNOWN_DEFINITION_KEYS = [
  'name',
  'description',
  'model',
  'effort',
  'tools',
  'disallowedTools',
  'context',
  'contexts',
  'delivery',
  'lifetime',
  'maxTurns',
  'permissionMode',
  'output',
  'retry',
  'requestTimeoutMs',
  'budget',
] as const;

const EFFORTS: readonly Effort[] = ['low', 'medium', 'high'];
const DELIVERIES: readonly Delivery[] = ['caller', 'parent'];
const LIFETIMES: readonly Lifetime[] = ['one-shot', 'continuable'];

/** A front matter value with the file line of its key. */
interface Field {
  readonly value: unknown;
  readonly line: number;
}

/**
 * Parses a definition file's text.
 *
 * - `name` may be omitted: the file name without `.md` stands in when it is a valid agent
 *   name (Pi names agents by file; Claude Code files always carry `name`, which wins).
 * - `tools` / `disallowedTools` take a YAML list or a comma-separated string.
 * - `model: inherit` (Claude Code's "use the caller's model") reads as no model; other model
 *   names are kept as written and resolved through the runtime's models table at spawn.
 * - `permissionMode` takes Claude Code's modes (see `permission-mode.ts` for what each means).
 * - An optional key with an empty value (`model:`) reads as not set.
 * - `contexts` takes a list or comma-separated string of `none`/`independent`,
 *   `all`/`fork`, `summary`, and `turns` or a positive integer for the last-N family;
 *   when `context` is also set, its mode must be one of them.
 * - The body, with leading blank lines and trailing whitespace removed, is the instructions.
 *
 * @returns a deeply frozen definition.
 * @throws DefinitionError for missing or unterminated front matter, YAML syntax errors,
 *   non-mapping front matter, duplicate keys, missing `name`/`description` and bad values.
 */
export function parseDefinition(text: string, options: ParseDefinitionOptions): AgentDefinition {
  const { file, scope } = options;
  const parts = splitFrontMatter(text, file);
  const fields = readFields(parts.yaml, parts.yamlFirstLine, file, options.onWarning);

  const unknownKeys: string[] = [];
  for (const [key, field] of fields) {
    if ((KNOWN_DEFINITION_KEYS as readonly string[]).includes(key)) continue;
    unknownKeys.push(key);
    const hint = suggestKey(key);
    options.onWarning?.(
      formatLocated({ file, line: field.line, detail: `unknown key "${key}" is ignored${hint === undefined ? '' : ` (did you mean "${hint}"?)`}` }),
    );
  }

  const reader = new FieldReader(file, fields);
  const name = readName(reader, file);
  const description = reader.required('description', readNonEmptyString, 'is required: say when a parent should delegate to this agent');
  const context = reader.optional('context', readContext);
  const contexts = reader.optional('contexts', readContexts);
  if (context !== undefined && contexts !== undefined && !contexts.includes(contextModeOf(context))) {
    reader.fail('context', `the default context is of mode "${contextModeOf(context)}", which "contexts" does not allow (${contexts.join(', ')})`);
  }
  const model = reader.optional('model', readNonEmptyString);

  const definition: AgentDefinition = {
    name,
    description,
    instructions: parts.body.replace(/^(?:[ \t]*\n)+/, '').trimEnd(),
    ...optional('model', model === 'inherit' ? undefined : model),
    ...optional('effort', reader.optional('effort', readEnum(EFFORTS))),
    ...optional('tools', reader.optional('tools', readToolList)),
    ...optional('disallowedTools', reader.optional('disallowedTools', readToolList)),
    ...optional('context', context),
    ...optional('contexts', contexts),
    ...optional('delivery', reader.optional('delivery', readEnum(DELIVERIES))),
    ...optional('lifetime', reader.optional('lifetime', readEnum(LIFETIMES))),
    // Claude Code's `maxTurns` key counts model requests per turn: the runtime calls that maxSteps.
    ...optional('maxSteps', reader.optional('maxTurns', readPositiveInteger)),
    ...optional('permissionMode', reader.optional('permissionMode', readEnum(PERMISSION_MODES))),
    ...optional('output', reader.optional('output', readOutputSchema)),
    ...optional('retry', reader.optional('retry', readRetryPolicy)),
    ...optional('requestTimeoutMs', reader.optional('requestTimeoutMs', readPositiveInteger)),
    ...optional('budget', reader.optional('budget', readBudget)),
    unknownKeys: Object.freeze(unknownKeys),
    source: Object.freeze({ file, scope }),
  };
  return Object.freeze(definition);
}

/** Parses the YAML into key → value with key lines; rejects syntax errors and duplicates. */
function readFields(yaml: string, firstLine: number, file: string, onWarning: ((message: string) => void) | undefined): Map<string, Field> {
  let lineCounter = new (yamlLib().LineCounter)();
  // uniqueKeys off: duplicates are reported below with the key's name, which yaml's own
  // error does not carry.
  let doc = yamlLib().parseDocument(yaml, { lineCounter, prettyErrors: false, uniqueKeys: false });
  // Reads `lineCounter` when called, so it follows the retry below (same line count).
  const lineAt = (offset: number): number => lineCounter.linePos(offset).line + firstLine - 1;

  const [syntax] = doc.errors;
  if (syntax !== undefined) {
    // Claude Code's second chance: quote unquoted values that hold ": " and the like, retry.
    const retry = quoteProblemValues(yaml);
    const retryCounter = new (yamlLib().LineCounter)();
    const retried = retry.quoted.length > 0 ? yamlLib().parseDocument(retry.text, { lineCounter: retryCounter, prettyErrors: false, uniqueKeys: false }) : undefined;
    if (retried === undefined || retried.errors.length > 0) {
      const hint = syntax.code === 'BLOCK_AS_IMPLICIT_KEY' ? ' (quote a value that contains ": ")' : '';
      throw new DefinitionError({ code: 'yaml_syntax', file, line: lineAt(syntax.pos[0]), detail: `invalid YAML: ${syntax.message}${hint}` }, { cause: syntax });
    }
    for (const { index, key } of retry.quoted) {
      onWarning?.(
        formatLocated({
          file,
          line: index + firstLine,
          key,
          detail: 'the unquoted value is not valid YAML (it holds ": " or another special character); it was read as quoted text, as Claude Code reads it. Quote the value to silence this warning',
        }),
      );
    }
    doc = retried;
    lineCounter = retryCounter;
  }
  for (const warning of doc.warnings) {
    onWarning?.(formatLocated({ file, line: lineAt(warning.pos[0]), detail: `YAML warning: ${warning.message}` }));
  }

  const fields = new Map<string, Field>();
  const contents = doc.contents;
  if (contents === null) return fields;
  if (!yamlLib().isMap(contents)) {
    throw new DefinitionError({
      code: 'not_a_mapping',
      file,
      line: lineAt(contents.range?.[0] ?? 0),
      detail: 'the front matter must be a mapping of keys to values (name: …, description: …)',
    });
  }
  for (const pair of contents.items) {
    const keyNode = pair.key;
    const line = lineAt(yamlLib().isNode(keyNode) ? (keyNode.range?.[0] ?? 0) : 0);
    if (!yamlLib().isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === 'object' || String(keyNode.value) === '') {
      throw new DefinitionError({ code: 'invalid_key', file, line, detail: 'every front matter key must be a plain name' });
    }
    const key = String(keyNode.value);
    const earlier = fields.get(key);
    if (earlier !== undefined) {
      throw new DefinitionError({ code: 'duplicate_key', file, line, key, detail: `appears twice (first on line ${earlier.line})` });
    }
    fields.set(key, { value: valueOf(pair.value, doc, { file, line, key }), line });
  }
  return fields;
}

/**
 * A value as JavaScript. Resolving it can fail after a clean parse (an alias to an anchor
 * that does not exist, or one that expands too far); that is the file's YAML at fault.
 */
function valueOf(node: unknown, doc: ReturnType<typeof Yaml.parseDocument>, where: { file: string; line: number; key: string }): unknown {
  if (!yamlLib().isNode(node)) return null;
  try {
    return node.toJS(doc);
  } catch (error) {
    throw new DefinitionError({ code: 'yaml_syntax', ...where, detail: `invalid YAML: ${errorText(error)}` }, { cause: error });
  }
}

/** Reads typed values from fields, turning a reader's complaint into a located error. */
class FieldReader {
  constructor(
    private readonly file: string,
    private readonly fields: ReadonlyMap<string, Field>,
  ) {}

  /** The line to blame for a key: the key's own line, or the front matter's first line. */
  lineOf(key: string): number {
    return this.fields.get(key)?.line ?? 1;
  }

  /** Whether the key is written at all, even with an empty value. */
  present(key: string): boolean {
    return this.fields.has(key);
  }

  fail(key: string, detail: string, code: 'invalid_value' | 'missing_key' = 'invalid_value'): never {
    throw new DefinitionError({ code, file: this.file, line: this.lineOf(key), key, detail });
  }

  /** Reads `key` when present and non-null; `read` returns the value or a problem string. */
  optional<T>(key: string, read: ValueReader<T>): T | undefined {
    const field = this.fields.get(key);
    if (field === undefined || field.value === null) return undefined;
    const result = read(field.value);
    if (result.ok) return result.value;
    return this.fail(key, result.problem);
  }

  required<T>(key: string, read: ValueReader<T>, missing: string): T {
    const field = this.fields.get(key);
    if (field === undefined) return this.fail(key, missing, 'missing_key');
    const result = read(field.value);
    if (result.ok) return result.value;
    return this.fail(key, result.problem);
  }
}

type ReadResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };
type ValueReader<T> = (value: unknown) => ReadResult<T>;

const ok = <T>(value: T): ReadResult<T> => ({ ok: true, value });
const bad = <T>(problem: string): ReadResult<T> => ({ ok: false, problem });

function readName(reader: FieldReader, file: string): string {
  if (!reader.present('name')) {
    // No name key: the file name stands in, as Pi names agents by file.
    const fromFile = basename(file).replace(/\.md$/i, '');
    if (isValidAgentName(fromFile)) return fromFile;
    return reader.fail(
      'name',
      `is required (the file name "${fromFile}" cannot stand in: an agent name uses lowercase letters, digits, "-" and "_", dots only between them)`,
      'missing_key',
    );
  }
  return reader.required('name', readAgentName, 'is required');
}

function readAgentName(value: unknown): ReadResult<string> {
  const text = readNonEmptyString(value);
  if (!text.ok) return text;
  return isValidAgentName(text.value)
    ? text
    : bad(`expected lowercase letters, digits, "-" and "_" (dots only between them), got ${describe(value)}`);
}

function readNonEmptyString(value: unknown): ReadResult<string> {
  if (typeof value !== 'string' || value.trim() === '') return bad(`expected a non-empty string, got ${describe(value)}`);
  return ok(value.trim());
}

function readEnum<T extends string>(allowed: readonly T[]): ValueReader<T> {
  return (value) =>
    typeof value === 'string' && (allowed as readonly string[]).includes(value)
      ? ok(value as T)
      : bad(`expected one of ${allowed.map((item) => `"${item}"`).join(', ')}, got ${describe(value)}`);
}

function readPositiveInteger(value: unknown): ReadResult<number> {
  // A quoted number ("5") is accepted: the intent is clear and YAML quoting is easy to slip.
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0
    ? ok(number)
    : bad(`expected a positive integer, got ${describe(value)}`);
}

function readToolList(value: unknown): ReadResult<readonly string[]> {
  let names: string[];
  if (typeof value === 'string') {
    names = splitToolList(value);
  } else if (Array.isArray(value)) {
    names = [];
    for (const [index, item] of value.entries()) {
      if (typeof item !== 'string' || item.trim() === '') {
        return bad(`item ${index + 1}: expected a tool name, got ${describe(item)}`);
      }
      names.push(item.trim());
    }
  } else {
    return bad(`expected a list of tool names or a comma-separated string, got ${describe(value)}`);
  }
  return ok(Object.freeze([...new Set(names)]));
}

/** `output`: a JSON Schema, as a YAML mapping or a JSON string. */
function readOutputSchema(value: unknown): ReadResult<JsonObject> {
  let schema = value;
  if (typeof value === 'string') {
    try {
      schema = JSON.parse(value);
    } catch {
      return bad(`expected a JSON Schema (a mapping, or JSON text), got ${describe(value)}`);
    }
  }
  try {
    return ok(checkOutputSchema(schema, 'output'));
  } catch (error) {
    return bad(error instanceof Error ? error.message : String(error));
  }
}

/** `budget`: a mapping of caps (`tokens`, `costUsd`, `wallMs`, `steps`, `spawns`, `softLimit`). */
function readBudget(value: unknown): ReadResult<Budget> {
  try {
    return ok(checkBudget(value, 'budget'));
  } catch (error) {
    return bad(error instanceof Error ? error.message : String(error));
  }
}

/** `retry`: a mapping of retry settings (`maxRetries`, `initialDelayMs`, ...). */
function readRetryPolicy(value: unknown): ReadResult<RetryPolicy> {
  try {
    return ok(checkRetryPolicy(value, 'retry'));
  } catch (error) {
    return bad(error instanceof Error ? error.message : String(error));
  }
}

function readContext(value: unknown): ReadResult<ContextSpec> {
  try {
    const spec = parseContextSpec(value);
    return ok(typeof spec === 'object' ? Object.freeze({ ...spec }) : spec);
  } catch (error) {
    return bad(error instanceof Error ? error.message : String(error));
  }
}

function readContexts(value: unknown): ReadResult<readonly ContextMode[]> {
  const items: unknown[] = typeof value === 'string' ? value.split(',').map((item) => item.trim()) : Array.isArray(value) ? value : [value];
  const modes: ContextMode[] = [];
  for (const item of items) {
    const mode = contextModeOfItem(item);
    if (mode === undefined) {
      return bad(`expected context modes (none, independent, all, fork, summary, turns or a positive integer), got ${describe(item)}`);
    }
    if (!modes.includes(mode)) modes.push(mode);
  }
  if (modes.length === 0) return bad('must allow at least one context mode');
  return ok(Object.freeze(modes));
}

function contextModeOfItem(item: unknown): ContextMode | undefined {
  if (item === 'turns') return 'turns';
  try {
    return contextModeOf(parseContextSpec(item));
  } catch {
    return undefined;
  }
}

/** A short, quoted rendering of a bad value for messages. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A known key that differs from `key` only in case, `-` or `_` (`max_turns` → `maxTurns`). */
function suggestKey(key: string): string | undefined {
  const fold = (name: string): string => name.toLowerCase().replace(/[-_]/g, '');
  return KNOWN_DEFINITION_KEYS.find((known) => fold(known) === fold(key));
}

/** `{ key: value }` when the value is set, `{}` otherwise, so absent fields stay absent. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]: V });
}

/**
 * Tool definitions from zod schemas: the model-facing JSON Schema and an argument validator
 * whose errors a model can act on.
 *
 * Built-in tools and host tools go through the same {@link defineTool}, so their schemas are
 * produced and canonicalized alike and their argument errors read alike. Validation never
 * throws: malformed model output is an ordinary outcome, answered with a tool error naming the
 * field and what it should hold, so the model can fix its call and retry.
 */
import { z } from 'zod';
import type { JsonValue } from '../dialogue/entry.js';
import { canonicalJson } from './canonical.js';
import { describeSchema } from './schema-wording.js';
import type { InputIssue, InputOutcome } from './tool-input-validate.js';
import type { JsonObject, ToolSchema } from './types.js';
import { freezeBuilt } from '../dialogue/freeze.js';

/** What is wrong with one field of a tool call's arguments. */
export interface ToolArgumentIssue {
  /** Path of the field (`task_name`, `attachments[0].name`); `''` for the arguments as a whole. */
  readonly field: string;
  readonly problem: 'missing' | 'invalid' | 'unknown_field' | 'not_an_object' | 'unknown_tool';
  /** What the field should hold, in words a model can follow. */
  readonly expected: string;
}

/** A rejected tool call: the issues and one model-facing message explaining all of them. */
export interface ToolArgumentError {
  readonly tool: string;
  readonly issues: readonly ToolArgumentIssue[];
  readonly message: string;
}

/** The outcome of validating a tool call's arguments. */
export type ToolParseResult<T> =
  | { readonly ok: true; readonly args: T }
  | { readonly ok: false; readonly error: ToolArgumentError };

/**
 * Expected-value wording per field, keyed by path with array indices written `[]`
 * (`attachments[].name`). Fields without a hint get wording derived from the zod issue.
 */
export type FieldHints = Readonly<Record<string, string>>;

/** A tool as the runtime holds it: its model-facing schema and its argument validator. */
export interface DefinedTool<T> {
  readonly name: string;
  readonly schema: ToolSchema;
  /** Validates raw arguments from a model. Never throws. */
  parse(args: unknown): ToolParseResult<T>;
}

/** Tool names providers accept: letters, digits, `_`, `-`, 1..64 characters. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Defines a tool from a zod object schema. The JSON Schema is generated for the input side
 * (what the model sends), without its `$schema` marker (providers do not need it and it would
 * only add bytes to every request head), canonicalized and deeply frozen, so equal definitions
 * give byte-equal heads. Throws a `TypeError` on a bad name or description, or a schema with
 * no JSON Schema form: those are programming errors, found when the tool is defined.
 */
export function defineTool<S extends z.ZodObject>(def: {
  readonly name: string;
  readonly description: string;
  readonly schema: S;
  readonly hints?: FieldHints;
}): DefinedTool<z.output<S>> {
  if (!TOOL_NAME_PATTERN.test(def.name)) {
    throw new TypeError(`Tool name ${JSON.stringify(def.name)} must be 1-64 letters, digits, "_" or "-"`);
  }
  if (def.description.trim() === '') throw new TypeError(`Tool ${def.name} needs a description`);
  const generated = z.toJSONSchema(def.schema, { io: 'input' }) as Record<string, unknown>;
  delete generated['$schema'];
  const inputSchema = freezeBuilt(JSON.parse(canonicalJson(generated)) as JsonObject);
  const schema: ToolSchema = Object.freeze({ name: def.name, description: def.description, inputSchema });
  // Canonical key order is alphabetical; error messages list fields in declaration order,
  // which the generated (not yet canonicalized) schema still has.
  const declared = freezeBuilt(generated as JsonObject);
  const context: ParseContext = { name: def.name, declared, hints: def.hints ?? {} };
  return Object.freeze({
    name: def.name,
    schema,
    parse: (args: unknown): ToolParseResult<z.output<S>> => parseWith(def.schema, context, args),
  });
}

/** What turning issues into a model-facing error needs to know about the tool. */
export interface ParseContext {
  readonly name: string;
  /** The generated JSON Schema in declaration order (error messages list fields in it). */
  readonly declared: JsonObject;
  readonly hints: FieldHints;
}

function parseWith<S extends z.ZodObject>(zodSchema: S, context: ParseContext, args: unknown): ToolParseResult<z.output<S>> {
  const notObject = refuseNonObject(context, args);
  if (notObject) return notObject;
  let result: z.ZodSafeParseResult<z.output<S>>;
  try {
    result = zodSchema.safeParse(args);
  } catch (error) {
    // A host refinement that throws is still the call's failure, not the runtime's.
    return toParseResult(context, { ok: false, thrown: error instanceof Error ? error.message : String(error) }, args);
  }
  if (result.success) return { ok: true, args: result.data };
  return toParseResult(context, { ok: false, issues: result.error.issues.map(fromZodIssue) }, args);
}

function fromZodIssue(issue: z.core.$ZodIssue): InputIssue {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  return { path, message: issue.message, ...(issue.code === 'unrecognized_keys' ? { unknownKeys: issue.keys } : {}), zod4: issue };
}

/** The error for arguments that are not a JSON object at all; `undefined` when they are one. */
export function refuseNonObject(context: ParseContext, args: unknown): ToolParseResult<never> | undefined {
  if (args !== null && typeof args === 'object' && !Array.isArray(args)) return undefined;
  const fields = fieldNames(context.declared);
  const expected = fields.length > 0 ? `a JSON object with the fields ${fields.join(', ')}` : 'an empty JSON object {}';
  return fail(context.name, [{ field: '', problem: 'not_an_object', expected }], [describeValue(args)]);
}

/**
 * A validation outcome as a tool parse result: issues become one model-facing message naming
 * each field, what it should hold (the tool's hint, else the issue's or the schema's wording)
 * and what it got.
 */
export function toParseResult<T>(context: ParseContext, outcome: InputOutcome<T>, args: unknown): ToolParseResult<T> {
  if (outcome.ok) return { ok: true, args: outcome.value };
  if ('thrown' in outcome) {
    return fail(context.name, [{ field: '', problem: 'invalid', expected: `arguments accepted by the tool (${outcome.thrown})` }], [undefined]);
  }
  const issues: ToolArgumentIssue[] = [];
  const received: Array<string | undefined> = [];
  const seen = new Set<string>();
  for (const issue of outcome.issues) {
    for (const found of toIssues(issue, context, args)) {
      const key = `${found.issue.problem}:${found.issue.field}`;
      // One issue per field: a bad task_name failing two checks is one thing to fix.
      if (seen.has(key)) continue;
      seen.add(key);
      issues.push(found.issue);
      received.push(found.received);
    }
  }
  if (issues.length === 0) return fail(context.name, [{ field: '', problem: 'invalid', expected: 'arguments accepted by the tool' }], [undefined]);
  return fail(context.name, issues, received);
}

interface FoundIssue {
  readonly issue: ToolArgumentIssue;
  readonly received: string | undefined;
}

function toIssues(issue: InputIssue, context: ParseContext, args: unknown): FoundIssue[] {
  const { declared, hints } = context;
  const path = issue.path;
  const field = formatPath(path);
  if (issue.unknownKeys !== undefined) return issue.unknownKeys.map((key) => unknownField(declared, path, key));
  const value = valueAt(args, path);
  // Libraries other than zod report a strict object's extra key on the key itself.
  const last = path[path.length - 1];
  if (issue.zod4 === undefined && typeof last === 'string' && value.present && isUndeclared(declared, path.slice(0, -1), last)) {
    return [unknownField(declared, path.slice(0, -1), last)];
  }
  // A missing field's issue only says which type was absent; the schema says what it holds.
  // For the arguments as a whole, a library's own message says more than "an object".
  const bySchema = (): string | undefined => (path.length === 0 ? undefined : describeSchema(schemaAt(declared, path)));
  const byIssue = (): string | undefined => (issue.zod4 !== undefined ? expectationOf(issue.zod4 as z.core.$ZodIssue) : undefined);
  const expected = hintFor(hints, path) ?? (value.present ? (byIssue() ?? bySchema()) : (bySchema() ?? byIssue())) ?? issue.message;
  if (value.present) return [{ issue: { field, problem: 'invalid', expected }, received: describeValue(value.value) }];
  return [{ issue: { field, problem: 'missing', expected }, received: undefined }];
}

function unknownField(declared: JsonObject, path: ReadonlyArray<string | number>, key: string): FoundIssue {
  const allowed = fieldNames(schemaAt(declared, path));
  const owner = path.length === 0 ? 'the arguments' : formatPath(path);
  return {
    issue: {
      field: joinPath(formatPath(path), key),
      problem: 'unknown_field',
      expected: allowed.length > 0 ? `no such field in ${owner}; allowed fields: ${allowed.join(', ')}` : `no fields in ${owner}`,
    },
    received: undefined,
  };
}

function isUndeclared(declared: JsonObject, parentPath: ReadonlyArray<string | number>, key: string): boolean {
  const parent = schemaAt(declared, parentPath);
  if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) return false;
  const props = propertiesOf(parent as JsonObject);
  return props !== undefined && !Object.hasOwn(props, key);
}

function fail(tool: string, issues: readonly ToolArgumentIssue[], received: ReadonlyArray<string | undefined>): ToolParseResult<never> {
  const sentences = issues.map((issue, i) => sentence(issue, received[i]));
  const message = `Invalid arguments for tool ${tool}: ${sentences.join(' ')} Fix the arguments and call ${tool} again.`;
  return { ok: false, error: Object.freeze({ tool, issues: Object.freeze(issues.map((i) => Object.freeze(i))), message }) };
}

function sentence(issue: ToolArgumentIssue, received: string | undefined): string {
  const got = received === undefined ? '' : `; got ${received}`;
  switch (issue.problem) {
    case 'missing':
      return `"${issue.field}" is required: expected ${issue.expected}.`;
    case 'unknown_field':
      return `"${issue.field}" is not accepted: ${issue.expected}.`;
    case 'not_an_object':
      return `the arguments must be ${issue.expected}${got}.`;
    default:
      return issue.field === '' ? `expected ${issue.expected}${got}.` : `"${issue.field}" is invalid: expected ${issue.expected}${got}.`;
  }
}

/** Formats a path as `a[0].b`. */
function formatPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : joinPath(out, part)), '');
}

const joinPath = (base: string, key: string): string => (base === '' ? key : `${base}.${key}`);

function hintFor(hints: FieldHints, path: ReadonlyArray<string | number>): string | undefined {
  // The nearest hinted ancestor speaks for fields without their own hint.
  for (let end = path.length; end > 0; end--) {
    const key = formatPath(path.slice(0, end)).replace(/\[\d+\]/g, '[]');
    const hint = hints[key];
    if (hint !== undefined) return hint;
  }
  return undefined;
}

function valueAt(root: unknown, path: ReadonlyArray<string | number>): { present: boolean; value: unknown } {
  let current: unknown = root;
  for (const part of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return { present: false, value: undefined };
    current = (current as Record<string | number, unknown>)[part];
  }
  return { present: current !== undefined, value: current };
}

function schemaAt(schema: JsonValue | undefined, path: ReadonlyArray<string | number>): JsonValue | undefined {
  let current = schema;
  for (const part of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    const node = current as JsonObject;
    const next = typeof part === 'number' ? node['items'] : propertiesOf(node)?.[part];
    current = next;
  }
  return current;
}

function propertiesOf(node: JsonObject): JsonObject | undefined {
  const props = node['properties'];
  return props !== null && typeof props === 'object' && !Array.isArray(props) ? (props as JsonObject) : undefined;
}

function fieldNames(schema: JsonValue | undefined): string[] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return [];
  return Object.keys(propertiesOf(schema as JsonObject) ?? {});
}

/** Wording for issues the tool gave no hint for, from the zod issue's own data. */
function expectationOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return withArticle(issue.expected === 'int' ? 'integer' : issue.expected);
    case 'too_small':
      return bound(issue.origin, issue.minimum, issue.inclusive === true, 'at least', 'more than');
    case 'too_big':
      return bound(issue.origin, issue.maximum, issue.inclusive === true, 'at most', 'less than');
    case 'invalid_format':
      return issue.format === 'regex' && issue.pattern !== undefined ? `a string matching ${issue.pattern}` : `a valid ${issue.format}`;
    case 'invalid_value':
      return `one of ${issue.values.map((v) => (typeof v === 'string' ? JSON.stringify(v) : String(v))).join(', ')}`;
    case 'not_multiple_of':
      return `a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return 'a value of one of the accepted types';
    default:
      return issue.message;
  }
}

function bound(origin: string, limit: number | bigint, inclusive: boolean, inclusiveWord: string, exclusiveWord: string): string {
  const word = inclusive ? inclusiveWord : exclusiveWord;
  const n = String(limit);
  const plural = n === '1' ? '' : 's';
  if (origin === 'string') return inclusive && inclusiveWord === 'at least' && n === '1' ? 'a non-empty string' : `a string of ${word} ${n} character${plural}`;
  if (origin === 'array' || origin === 'set') return `a list of ${word} ${n} item${plural}`;
  return `a number ${word} ${n}`;
}

const withArticle = (noun: string): string => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

/** A short, model-readable rendering of a received value. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}... (${value.length} characters)` : JSON.stringify(value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value === 'undefined' ? 'nothing' : `a ${typeof value}`;
  }
}


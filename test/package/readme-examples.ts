/**
 * The README's TypeScript examples as modules a consumer project can type-check and run.
 *
 * Examples are fragments: they use a `model`, a `z` or a host function they never declare.
 * Each becomes one module with just the declarations it lacks: imports of the package's own
 * exports, and small fixtures for the host's parts (`FIXTURES`). Names are found with the
 * TypeScript parser, so an example that declares or imports a name keeps its own.
 */
import ts from 'typescript';

/** One ```ts block of the README. */
export interface ReadmeExample {
  /** 1-based line of the block's opening fence. */
  readonly line: number;
  readonly code: string;
  /** Why it is only listed, not compiled: it needs something a scratch project cannot have. */
  readonly skip?: string;
}

/** Modules an example may import that the scratch project does not install, and why. */
const UNAVAILABLE: Readonly<Record<string, string>> = {
  '@ai-sdk/anthropic': 'needs a provider package and an API key',
  '@opentelemetry/sdk-trace': 'needs an OpenTelemetry SDK and an exporter',
};

/** Every ```ts block (also indented ones inside list items), in order. */
export function readmeExamples(readme: string): ReadmeExample[] {
  const examples: ReadmeExample[] = [];
  const lines = readme.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```ts\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]!); j++) body.push(lines[j]!.slice(indent));
    const code = body.join('\n');
    const missing = Object.keys(UNAVAILABLE).find((module) => code.includes(`from '${module}'`));
    examples.push({ line: i + 1, code, ...(missing ? { skip: `imports ${missing}: ${UNAVAILABLE[missing]}` } : {}) });
    i = j;
  }
  return examples;
}

/** A host-side stand-in for a name the README leaves to the reader, and the names it uses. */
interface Fixture {
  readonly code: string;
  readonly uses?: readonly string[];
}

const FIXTURES: Readonly<Record<string, Fixture>> = {
  z: { code: "import { z } from 'zod';" },
  model: {
    code: "const model = scriptedModel({ '/root': { 0: [{ text: 'The parser fails on nested blocks.' }] } });",
    uses: ['scriptedModel'],
  },
  askPerson: { code: 'const askPerson = async (path: string, args: unknown): Promise<boolean> => (console.log("approve?", path, args), true);' },
  callMyModel: {
    code: [
      "import type { SampleInput as FixtureSampleInput } from 'subagent-actors/machine';",
      'const callMyModel = async (input: FixtureSampleInput, _signal: AbortSignal) => ({',
      "  text: `done: ${input.path}`,",
      '  toolCalls: [],',
      '  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },',
      '});',
    ].join('\n'),
  },
  readProjectFile: { code: "const readProjectFile = async (path: string): Promise<string> => `contents of ${path}`;" },
  myHarness: { code: "const myHarness = { deliver: (result: { readonly path: string; readonly status: string }) => console.log('delivered', result.path, result.status) };" },
};

/**
 * The example as a module: the imports and fixtures it lacks, then its own code. `exports`
 * maps each public value name to the entry that exports it (`subagent-actors`, `/testing`, ...).
 */
export function exampleModule(code: string, exports: ReadonlyMap<string, string>): string {
  const { declared, used } = namesOf(code);
  const imports = new Map<string, string[]>();
  const fixtures: string[] = [];
  const need = (name: string): void => {
    if (declared.has(name)) return;
    declared.add(name);
    const fixture = FIXTURES[name];
    if (fixture) {
      for (const dependency of fixture.uses ?? []) need(dependency);
      fixtures.push(fixture.code);
      return;
    }
    const entry = exports.get(name);
    if (entry) imports.set(entry, [...(imports.get(entry) ?? []), name]);
  };
  for (const name of used) need(name);
  const importLines = [...imports].map(([entry, names]) => `import { ${names.join(', ')} } from '${entry}';`);
  return [...importLines, ...fixtures, '', code, '', 'export {};', ''].join('\n');
}

/** Names the code declares at its top level (imports included) and identifiers it uses. */
function namesOf(code: string): { declared: Set<string>; used: Set<string> } {
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2022, true);
  const declared = new Set<string>();
  const used = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) declared.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) declared.add(element.name.text);
      if (bindings && ts.isNamespaceImport(bindings)) declared.add(bindings.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) collectBindings(declaration.name, declared);
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) {
      declared.add(statement.name.text);
    }
  }
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && !isPropertyName(node)) used.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { declared, used };
}

function collectBindings(name: ts.BindingName, into: Set<string>): void {
  if (ts.isIdentifier(name)) into.add(name.text);
  else for (const element of name.elements) if (!ts.isOmittedExpression(element)) collectBindings(element.name, into);
}

/** `x` in `a.x`, `{ x: 1 }` and `{ x }` destructuring keys are not free references to `x`. */
function isPropertyName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
    (ts.isPropertyAssignment(parent) && parent.name === node) ||
    (ts.isBindingElement(parent) && parent.propertyName === node) ||
    (ts.isPropertySignature(parent) && parent.name === node) ||
    (ts.isMethodDeclaration(parent) && parent.name === node)
  );
}

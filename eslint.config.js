// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// The layers, bottom up: what each folder may import besides its own files (docs/architecture.md,
// "Layers"). Every folder not listed for a folder is forbidden to it, type-only imports included,
// so the folder graph is acyclic by construction.
// src/text (grapheme and width helpers) sits below everything and any folder may use it.
const PURE = ['src/dialogue', 'src/context', 'src/request', 'src/policy'];
const BASE_LAYERS = {
  'src/text': [],
  'src/dialogue': [],
  'src/context': ['src/dialogue'],
  'src/request': ['src/dialogue', 'src/context'],
  'src/policy': ['src/dialogue', 'src/context', 'src/request'],
  'src/model': PURE,
  machines: [...PURE, 'src/otel'],
  'src/load': PURE,
  'src/inspect': PURE,
  // Spans of the agent tree; below the runtime, which reports to it. It needs nothing else.
  'src/otel': [],
  'src/store': [...PURE, 'src/model', 'machines'],
  'src/testing': [...PURE, 'src/model', 'machines', 'src/inspect'],
  'src/runtime': [...PURE, 'src/model', 'machines', 'src/load', 'src/inspect', 'src/store', 'src/otel'],
  'src/pi': [...PURE, 'src/model', 'machines', 'src/load', 'src/runtime'],
  'src/viewer': [...PURE, 'src/model', 'machines', 'src/inspect', 'src/store', 'src/runtime'],
};
const LAYERS = Object.fromEntries(Object.entries(BASE_LAYERS).map(([folder, allowed]) => [folder, folder === 'src/text' ? allowed : ['src/text', ...allowed]]));
// The main entry and the CLI sit on top: nothing under them imports them.
const TOP = ['src/index.ts', 'src/cli'];
const layerZones = Object.entries(LAYERS).map(([folder, allowed]) => ({
  target: `./${folder}`,
  from: [...Object.keys(LAYERS), ...TOP].filter((other) => other !== folder && !allowed.includes(other)).map((other) => `./${other}`),
  message: `${folder} may import only ${allowed.length === 0 ? 'its own files' : allowed.join(', ')} (docs/architecture.md, "Layers").`,
}));

// File access and processes belong to the loaders, stores and the runtime, never to a pure layer.
const NO_IO = { group: ['fs', 'node:fs', 'node:fs/*', 'fs/*', 'node:child_process', 'child_process', 'node:net', 'node:http', 'node:https', 'pg'], message: 'Pure layers do no I/O (file access lives in src/load, src/store).' };
// A sleep in a test: a timer whose callback is a bare function (a promise's resolve) or a
// function that only calls one (`() => resolve()`, `function () { done(); }`) or names one
// (`() => resolve`, which never settles at all).
const TIMER = "CallExpression[callee.name=/^(setTimeout|setInterval)$/]";
const SLEEPS = [
  `${TIMER}[arguments.0.type='Identifier']`,
  `${TIMER}[arguments.0.type='ArrowFunctionExpression'][arguments.0.body.type='Identifier']`,
  `${TIMER}[arguments.0.type=/^(ArrowFunctionExpression|FunctionExpression)$/][arguments.0.body.type='CallExpression'][arguments.0.body.callee.type='Identifier']`,
  `${TIMER}[arguments.0.type=/^(ArrowFunctionExpression|FunctionExpression)$/][arguments.0.body.type='BlockStatement'][arguments.0.body.body.length=1][arguments.0.body.body.0.type='ExpressionStatement'][arguments.0.body.body.0.expression.type='CallExpression'][arguments.0.body.body.0.expression.callee.type='Identifier']`,
];
// XState's private members: the Actor class declares them `private` (or they exist only at run
// time), so a cast reaches them and an XState release may change them without notice. `_parent`
// is not among them: it is part of XState's public `ActorRef` type.
const XSTATE_PRIVATE = /^_(stop|stopProcedure|relay|send|boot|error|reportError|complete|process|processingStatus|actorScope|snapshot|doneEvent|syncSnapshot|forward|deferred|initState|systemId)$/;
const NO_XSTATE_PRIVATE = [
  { selector: `MemberExpression[property.name=${XSTATE_PRIVATE}]`, message: "No private XState API (docs/architecture.md): use the actor's public methods or an event." },
  { selector: `MemberExpression[property.value=${XSTATE_PRIVATE}]`, message: "No private XState API (docs/architecture.md): use the actor's public methods or an event." },
];
const NO_XSTATE = { group: ['xstate', '@xstate/*'], message: 'Only machines/ and the layers above it use XState.' };

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'docs/', '.bench-build/', '.stryker-tmp/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests must not sleep: a timer that only settles a promise (`setTimeout(resolve, 10)`,
    // `setTimeout(() => resolve(), 10)`, `setTimeout(function () { done(); }, 10)`) waits on the
    // wall clock. test/lint/no-sleep.test.ts lints each form.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...SLEEPS.map((selector) => ({ selector, message: 'Tests must not sleep; wait on events or a simulated clock.' }))],
      'no-restricted-imports': ['error', { paths: [{ name: 'node:timers/promises', importNames: ['setTimeout'], message: 'Tests must not sleep; wait on events or a simulated clock.' }, { name: 'timers/promises', importNames: ['setTimeout'], message: 'Tests must not sleep; wait on events or a simulated clock.' }] }],
    },
  },
  {
    files: ['src/**/*.ts', 'machines/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      // Import cycles between files (type-only imports are erased at run time and not counted).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      // test/lint/no-private-xstate.test.ts lints each form.
      'no-restricted-syntax': ['error', ...NO_XSTATE_PRIVATE],
    },
  },
  {
    files: ['src/text/**', 'src/dialogue/**', 'src/context/**', 'src/request/**', 'src/policy/**', 'src/otel/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_XSTATE, NO_IO] }] },
  },
  {
    // The viewer's page runs in the browser; its shared model is pure (no I/O, no XState).
    files: ['src/viewer/page/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/viewer/model/**', 'src/viewer/page/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_XSTATE, NO_IO] }] },
  },
  {
    files: ['src/model/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_XSTATE] }] },
  },
);

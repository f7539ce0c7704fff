/**
 * `--live provider:model`: the demo's session against a real model through the AI SDK, for
 * people who have a provider package and key. The provider package is imported lazily, so
 * the library and the scripted demo never depend on one.
 */
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ModelAdapter } from '../index.js';
import { aiSdkModel } from '../model/ai-sdk.js';

/** A parsed `--live` value. */
export interface LiveSpec {
  readonly provider: string;
  readonly modelId: string;
  /** The npm package that provides it, e.g. `@ai-sdk/anthropic`. */
  readonly packageName: string;
}

/** Imports a module by name (injectable so tests need no provider package). */
export type Importer = (name: string) => Promise<Record<string, unknown>>;

const defaultImporter: Importer = (name) => import(name) as Promise<Record<string, unknown>>;

/** Parses `anthropic:claude-sonnet-4-5` (provider, then the provider's model id). */
export function parseLiveSpec(value: string): LiveSpec {
  const match = /^([a-z][a-z0-9-]*):(.+)$/.exec(value.trim());
  if (!match) throw new Error(`--live takes provider:model, e.g. anthropic:claude-sonnet-4-5 (got ${JSON.stringify(value)})`);
  const provider = match[1]!;
  return { provider, modelId: match[2]!, packageName: `@ai-sdk/${provider}` };
}

/**
 * Loads the provider package and wraps its model as a {@link ModelAdapter}. The provider reads
 * its own API key from the environment (e.g. `ANTHROPIC_API_KEY`) and reports a missing one.
 */
export async function loadLiveModel(spec: LiveSpec, importer: Importer = defaultImporter): Promise<ModelAdapter> {
  let mod: Record<string, unknown>;
  try {
    mod = await importer(spec.packageName);
  } catch {
    throw new Error(`--live ${spec.provider}:${spec.modelId} needs the provider package: npm i ${spec.packageName}`);
  }
  const factory = mod[camel(spec.provider)];
  if (typeof factory !== 'function') {
    throw new Error(`${spec.packageName} does not export a provider named "${camel(spec.provider)}"`);
  }
  const model = (factory as (id: string) => LanguageModelV4)(spec.modelId);
  return aiSdkModel(model, { cacheHints: spec.provider === 'anthropic' });
}

function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

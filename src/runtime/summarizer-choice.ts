/**
 * Which summarizer a runtime uses for backgrounds and compactions.
 */
import { modelSummarizer, type Summarizer } from '../model/summarizer.js';
import type { RuntimeOptions } from './types.js';

/** The summarizer a runtime uses: the configured one, the model's own, or one built on it. */
export function summarizerFor(options: Pick<RuntimeOptions, 'summarizer' | 'model' | 'modelId'>): Summarizer {
  const { summarizer, model, modelId } = options;
  if (summarizer) return summarizer;
  const own = model as Partial<Summarizer>;
  if (typeof own.summarize === 'function') return own as Summarizer;
  return modelSummarizer(model, { model: modelId ?? 'default' });
}

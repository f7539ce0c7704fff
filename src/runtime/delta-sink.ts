/**
 * Where one model request's deltas go while a host iterates events: the `onDelta` the runtime
 * hands the adapter, publishing `text-delta` and `reasoning-delta` events for the asking agent.
 */
import type { SampleInput } from '../../machines/agent.types.js';
import type { ModelDelta, ModelResponse } from '../model/adapter.js';
import type { RuntimeCore } from './core.js';

/** The callback for one request, and what to do when its reply arrives. */
export interface DeltaSink {
  readonly onDelta: (delta: ModelDelta) => void;
  /**
   * The reply arrived: later deltas are ignored, and what the adapter did not stream (its
   * reasoning parts, its text) is published as one delta each, so every adapter's reply
   * reaches the stream before it is acted on.
   */
  replied(response: Pick<ModelResponse, 'text' | 'reasoning'>): void;
  /** The attempt failed: later deltas are ignored (the next attempt streams from its start). */
  close(): void;
}

/** A delta sink for the request `input` describes; deltas after an abort are dropped. */
export function deltaSink(core: RuntimeCore, input: Pick<SampleInput, 'path' | 'turn' | 'step'>, signal: AbortSignal): DeltaSink {
  const { path, turn, step } = input;
  let open = true;
  let streamedText = false;
  let streamedReasoning = false;
  return {
    onDelta: (delta) => {
      // An adapter's late or malformed delta is dropped, never thrown back into its stream.
      if (!open || signal.aborted || delta === null || typeof delta !== 'object' || typeof delta.text !== 'string' || delta.text === '') return;
      if (delta.kind === 'text') {
        streamedText = true;
        core.events.publish({ type: 'text-delta', path, turn, step, text: delta.text });
      } else if (delta.kind === 'reasoning') {
        streamedReasoning = true;
        core.events.publish({ type: 'reasoning-delta', path, turn, step, text: delta.text });
      }
    },
    close: () => {
      open = false;
    },
    replied: ({ text, reasoning }) => {
      open = false;
      if (signal.aborted) return;
      if (!streamedReasoning) for (const part of reasoning ?? []) if (part.text !== '') core.events.publish({ type: 'reasoning-delta', path, turn, step, text: part.text });
      if (!streamedText && text !== '') core.events.publish({ type: 'text-delta', path, turn, step, text });
    },
  };
}

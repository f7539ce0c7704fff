/**
 * The session the at-most-once tests run: the root calls `charge` (a host tool with a side
 * effect, not idempotent), then answers. Replies come a macrotask later, as a provider's would.
 */
import { z } from 'zod';
import { defineRuntimeTool, ZERO_USAGE, type ModelAdapter, type ModelRequest, type RuntimeTool, type SampleContext } from '../../src/index.js';

/** The model: step 0 calls `charge`, the next step answers with what it got back. */
export function effectModel(beforeCall?: () => Promise<void>): ModelAdapter {
  return {
    name: 'effects',
    async sample(request: ModelRequest, context: SampleContext) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const last = request.messages.at(request.messages.length - 1);
      if (last?.kind === 'tool_result') return { text: `The charge said: ${last.content}`, toolCalls: [], usage: ZERO_USAGE };
      await beforeCall?.();
      return { text: '', toolCalls: [{ id: `charge_${context.turn}`, name: 'charge', arguments: { amount: 5 } }], usage: ZERO_USAGE };
    },
  };
}

/** `charge`: runs `effect` with the amount and answers "charged". */
export function chargeTool(effect: (amount: number) => void): RuntimeTool {
  return defineRuntimeTool({
    name: 'charge',
    description: 'Charges the card (not idempotent).',
    schema: z.object({ amount: z.number() }),
    execute: ({ amount }) => {
      effect(amount);
      return 'charged';
    },
  }) as RuntimeTool;
}

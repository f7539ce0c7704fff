/**
 * The fork prefix property through real selection: for random parent dialogues (compactions,
 * parallel calls, an active turn ending in an Agent call with sibling calls), the first request
 * of an `all` subagent with the parent's configuration begins with the parent's last request
 * (its head and every message it sent), byte for byte.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectSnapshot } from '../../src/context/select.js';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { userEntry } from '../../src/dialogue/entry.js';
import { EntryView } from '../../src/dialogue/entry-seq.js';
import { composeInitialTask } from '../../src/request/compose-task.js';
import { assembleRequest } from '../../src/request/prefix.js';
import { requestPrefixBytes, serializeHead, serializeMessages, serializeRequest, sharedRequestPrefix } from '../../src/request/serialize.js';
import { BUILTIN_TOOL_SCHEMAS } from '../../src/request/tools.js';
import type { SystemConfiguration } from '../../src/request/types.js';
import { dialogueArb } from '../dialogue/arbitrary.js';

const system: SystemConfiguration = Object.freeze({ preset: 'base', systemPrompt: 'You are a careful engineer. Délègue si utile.', tools: BUILTIN_TOOL_SCHEMAS });

describe('fork prefix through selection (property)', () => {
  it('an all-fork\'s first request extends the parent\'s last request', () => {
    fc.assert(
      fc.property(dialogueArb(), fc.constantFrom<'low' | undefined>(undefined, 'low'), (generated, effort) => {
        fc.pre(generated.trigger !== null);
        const parent = Dialogue.of(generated.entries);
        const effective = parent.effective().toArray();
        // The parent's last model call sent everything before the reply that holds the Agent call.
        const lastReply = effective.findLastIndex((e) => e.kind === 'assistant');
        const parentLast = assembleRequest({ system, messages: EntryView.of(effective.slice(0, lastReply)), model: 'm', effort });

        const snapshot = selectSnapshot(parent, 'all', { triggeringCallId: generated.trigger! });
        const task = composeInitialTask({ kind: 'fork', parentPath: '/root', role: undefined }, 'check it', system);
        const child = Dialogue.seeded(snapshot.entries).append(userEntry({ text: task, origin: { kind: 'task', from: '/root' } }));
        const childFirst = assembleRequest({ system, messages: child.effective(), model: 'm', effort });

        const inherited = serializeHead(system) + serializeMessages(effective.slice(0, lastReply));
        expect(serializeRequest(childFirst).startsWith(inherited)).toBe(true);
        expect(sharedRequestPrefix(parentLast, childFirst)).toBeGreaterThanOrEqual(requestPrefixBytes(parentLast));
        // The triggering call is nowhere in what the subagent sends.
        expect(serializeRequest(childFirst)).not.toContain(`"${generated.trigger!}"`);
      }),
      { numRuns: 300 },
    );
  });
});

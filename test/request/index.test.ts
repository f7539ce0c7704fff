import { describe, expect, it } from 'vitest';
import * as request from '../../src/request/index.js';

describe('src/request barrel', () => {
  it('re-exports the request layer', () => {
    for (const name of [
      'canonicalJson',
      'serializeRequest',
      'sharedPrefixBytes',
      'sharedRequestPrefix',
      'requestHeadHash',
      'parseToolArguments',
      'defineHostTool',
      'createToolRegistry',
      'resolvePreset',
      'buildSystemConfiguration',
      'hasTool',
      'forkTaskWrapper',
      'independentTaskText',
      'composeInitialTask',
      'comparePrefix',
      'assembleRequest',
    ] as const) {
      expect(typeof request[name]).toBe('function');
    }
    expect(request.BUILTIN_TOOL_SCHEMAS).toHaveLength(5);
    expect(request).not.toHaveProperty('primeHead');
  });
});

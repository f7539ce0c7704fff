import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStore, openPostgresStore } from '../../src/store/postgres.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { resumeRuntime } from '../../src/runtime/resume.js';
import { dropSchemas, PG_URL, postgresAvailable, uniqueSchema } from './pg-helpers.js';

const available = await postgresAvailable();
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

const tokens = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 });

describe.skipIf(!available)('budgets with the Postgres store', () => {
  it('keeps remaining budgets across a resume, a live subagent keeping its own', async () => {
    const schema = uniqueSchema();
    schemas.push(schema);
    const script = {
      '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'a', message: 'do a', budget: { tokens: 30_000, steps: 4 } } }], usage: tokens(100, 10) }, { text: 'done', usage: tokens(100, 10) }] },
      // A continuable subagent stays live (idle) after its turn, holding what is left of its carve.
      '/root/a': { 0: [{ text: 'a', usage: tokens(2_000, 200) }] },
    };
    const store = await createPostgresStore({ connectionString: PG_URL, schema, sessionId: 'budgets' });
    const rt = createRuntime({ model: scriptedModel(script), store, budget: { tokens: 100_000, spawns: 3 }, defaults: { lifetime: 'continuable' }, maxOutputTokens: 100 });
    rt.prompt('go');
    await rt.whenQuiet();
    const root = rt.budgetOf('/root');
    const a = rt.budgetOf('/root/a');
    expect(root).toEqual({ tokens: 100_000 - 220 - 30_000, spawns: 2 });
    expect(a).toEqual({ tokens: 30_000 - 2_200, steps: 3, spawns: 2 });
    await store.flush();
    await store.close();
    const reopened = await openPostgresStore({ connectionString: PG_URL, schema, sessionId: 'budgets' });
    const resumed = resumeRuntime({ model: scriptedModel(script), store: reopened });
    expect(resumed.budgetOf('/root')).toEqual(root);
    expect(resumed.budgetOf('/root/a')).toEqual(a);
    resumed.stop();
    await resumed.whenQuiet();
    await reopened.close();
  });
});

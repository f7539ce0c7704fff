/** Approvals across a resume with the Postgres store (#26.2): pending again, same id and order, answered once. */
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPostgresStore, openPostgresStore } from '../../src/store/postgres.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import { resumeRuntime } from '../../src/runtime/resume.js';
import type { ApprovalRequest, Runtime } from '../../src/runtime/types.js';
import { dropSchemas, PG_URL, postgresAvailable, uniqueSchema } from './pg-helpers.js';

const available = await postgresAvailable();
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

function pending(rt: Runtime, count: number): Promise<readonly ApprovalRequest[]> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (rt.approvals().length < count) return;
      off();
      resolve(rt.approvals());
    };
    const off = rt.on('approval-requested', () => queueMicrotask(check));
    check();
  });
}

const deploy = (ran: string[]) =>
  defineRuntimeTool({ name: 'deploy', description: 'Deploys.', schema: z.object({ env: z.string() }), needsApproval: true, execute: ({ env }, { path }) => (ran.push(`${path}:${env}`), 'ok') });

const script = {
  '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'a', message: 'a' } }, { name: 'Agent', arguments: { task_name: 'b', message: 'b' } }] }, { text: 'done' }] },
  '/root/a': { 0: [{ toolCalls: [{ name: 'deploy', id: 'd', arguments: { env: 'a' } }] }, { text: 'a done' }] },
  '/root/b': { 0: [{ toolCalls: [{ name: 'deploy', id: 'd', arguments: { env: 'b' } }] }, { text: 'b done' }] },
};

describe.skipIf(!available)('approvals with the Postgres store', () => {
  it('two parallel requests pending at the crash are pending again after resume, in order, each answered once', async () => {
    const schema = uniqueSchema();
    schemas.push(schema);
    const store = await createPostgresStore({ connectionString: PG_URL, schema, sessionId: 'approvals' });
    const rt = createRuntime({ model: scriptedModel(script), tools: [deploy([])], approve: 'queue', store });
    rt.prompt('go');
    const before = await pending(rt, 2);
    await store.flush();
    await store.close();
    const reopened = await openPostgresStore({ connectionString: PG_URL, schema, sessionId: 'approvals' });
    const ran: string[] = [];
    const resumed = resumeRuntime({ model: scriptedModel(script), tools: [deploy(ran)], approve: 'queue', store: reopened });
    expect(await pending(resumed, 2)).toEqual(before);
    for (const r of resumed.approvals()) resumed.answerApproval(r.id, true);
    await resumed.whenQuiet();
    // Each ran once. The order is the requests' (checked above) and the answers'; when each
    // approved call then runs depends on its own journal flush to Postgres, not on that order.
    expect([...ran].sort()).toEqual(['/root/a:a', '/root/b:b']);
    expect(resumed.approvals()).toEqual([]);
    resumed.stop();
    await resumed.whenQuiet();
    await reopened.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { TestApp } from '../../../test/helpers.ts';
import { auditLogs } from '../../db/schema.ts';
import { crmKit } from './crm-testing.ts';
import { voisoSandbox } from './telephony.ts';

/** Call outcomes, the call log and click-to-call through the built-in sandbox telephony (no Voiso settings). */
const kit = crmKit();
const { ids, call, lead, row } = kit;
let t: TestApp;

beforeAll(async () => {
  // VOISO_SANDBOX is off in tests unless asked; the base URL reaches nothing, so a configured Voiso fails visibly.
  t = await kit.start({
    VOISO_SANDBOX: 'true',
    VOISO_BASE_URL: 'http://127.0.0.1:1/{cluster}',
    VOISO_TIMEOUT_MS: '500',
  });
});
afterAll(async () => t.close());

const setStatus = (who: number | string, id: number, body: unknown) =>
  call(who, 'PUT', `/admin/leads/${id}/status`, body);
const history = (id: number) =>
  t.ctx.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.subjectType, 'lead'), eq(auditLogs.subjectId, id)))
    .orderBy(desc(auditLogs.id));

describe('call outcomes', () => {
  it("lets an agent set their lead's status from the configured ones, in the history with who and when", async () => {
    const { id } = await lead({ agentId: ids.agent });
    const res = await setStatus(5, id, { status: 'Interested' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ lead_status: 'Interested', call_id: null });
    expect((await row(id)).leadStatus).toBe('Interested');
    const [h] = await history(id);
    expect(h).toMatchObject({
      action: 'lead.status',
      actorId: ids.agent,
      before: { lead_status: 'New' },
      after: { lead_status: 'Interested' },
    });
    const seen = (await call(5, 'GET', `/admin/leads/${id}/history`)).json().data[0];
    expect(seen).toMatchObject({
      action: 'lead.status',
      actor: expect.any(String),
      after: { lead_status: 'Interested' },
    });
    expect(Date.parse(seen.created_at)).toBeGreaterThan(Date.now() - 60_000);
    // Retention agents on their leads, managers and admins on any.
    const ret = await lead({ retId: ids.retention, group: 'retentions' });
    expect((await setStatus(6, ret.id, { status: 'Call Back' })).statusCode).toBe(200);
    expect((await setStatus(2, ret.id, { status: 'No Answer' })).statusCode).toBe(200);
    expect((await setStatus(1, ret.id, { status: 'Contacted' })).statusCode).toBe(200);
    expect((await history(ret.id)).filter((r) => r.action === 'lead.status')).toHaveLength(3);
  });

  it("answers 404 for another agent's lead and changes nothing", async () => {
    const theirs = await lead({ agentId: ids.agent2 });
    const retained = await lead({ retId: ids.retention2, group: 'retentions' });
    for (const [who, id] of [
      [5, theirs.id],
      [6, theirs.id],
      [6, retained.id],
      [5, 2_000_000_000],
    ] as const) {
      const res = await setStatus(who, id, { status: 'Interested' });
      expect(res.statusCode, `${who} ${id}`).toBe(404);
      expect(res.json().message).toBe('Lead not found.');
    }
    expect((await row(theirs.id)).leadStatus).toBe('New');
    expect(await history(theirs.id)).toEqual([]);
  });

  it('refuses other roles and bad input', async () => {
    const { id } = await lead({ agentId: ids.agent });
    expect((await setStatus(4, id, { status: 'Interested' })).statusCode).toBe(403);
    expect((await setStatus(3, id, { status: 'Interested' })).statusCode).toBe(403);
    expect((await call(null, 'PUT', `/admin/leads/${id}/status`, { status: 'Interested' })).statusCode).toBe(401);
    const unknown = await setStatus(5, id, { status: 'Rich' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toMatchObject({ status: 'Choose a status from the list.' });
    for (const body of [{}, { status: '' }, { status: 'x'.repeat(61) }, { status: 7 }])
      expect((await setStatus(5, id, body)).statusCode, JSON.stringify(body)).toBe(400);
    expect((await setStatus(5, 0, { status: 'New' })).statusCode).toBe(400);
    expect((await row(id)).leadStatus).toBe('New');
  });

  it('records a status change made in the edit form in the history too', async () => {
    const { id, name } = await lead();
    const res = await call(1, 'PUT', `/admin/leads/${id}`, { firstName: name, leadStatus: 'Not Interested' });
    expect(res.statusCode, res.body).toBe(200);
    const actions = (await history(id)).map((r) => r.action);
    expect(actions).toEqual(['lead.status', 'lead.update']);
  });
});

describe('click-to-call in the sandbox telephony', () => {
  it('calls through the local contact center: Voiso protocol, agent status, call log, then the outcome on the call', async () => {
    const { id } = await lead({ agentId: ids.agent, phone: '+44 7700 900321' });
    const agents = (await call(5, 'GET', '/admin/crm/voiso/agents')).json();
    expect(agents).toMatchObject({ configured: true, me: { email: 'agent@demo.test', status: 'available' } });

    const res = await call(5, 'POST', '/admin/crm/voiso/startCall', { leadId: id });
    expect(res.statusCode, res.body).toBe(200);
    const sandbox = await voisoSandbox(t.ctx);
    const placed = sandbox.calls.at(-1)!;
    expect(res.json()).toEqual({ message: 'Call started successfully', call_id: placed.callId });
    expect(placed).toMatchObject({ agent: 'agent@demo.test', number: '447700900321', accountId: String(id) });
    expect((await call(5, 'GET', '/admin/crm/voiso/agents')).json().me.status).toBe('outbound');

    const log = await call(5, 'GET', `/admin/leads/${id}/calls`);
    expect(log.statusCode).toBe(200);
    expect(log.json().data).toEqual([
      expect.objectContaining({
        provider: 'sandbox',
        status: 'started',
        agent: 'agent@demo.test',
        call_id: placed.callId,
        caller: { id: ids.agent, full_name: expect.any(String) },
        outcome: null,
      }),
    ]);
    const outcome = await setStatus(5, id, { status: 'No Answer' });
    expect(outcome.json().call_id).toBe(log.json().data[0].id);
    expect((await call(5, 'GET', `/admin/leads/${id}/calls`)).json().data[0]).toMatchObject({
      outcome: 'No Answer',
      outcome_at: expect.any(String),
    });
    // A second outcome without a new call changes the status, not that call's outcome.
    expect((await setStatus(5, id, { status: 'Interested' })).json().call_id).toBeNull();
  });

  it('lists calls only on leads the caller may see; a failed call is logged as failed', async () => {
    const theirs = await lead({ agentId: ids.agent2 });
    expect((await call(5, 'GET', `/admin/leads/${theirs.id}/calls`)).statusCode).toBe(404);
    expect((await call(4, 'GET', `/admin/leads/${theirs.id}/calls`)).statusCode).toBe(403);
    expect((await call(1, 'GET', '/admin/leads/abc/calls')).statusCode).toBe(400);
    // The manager is a staff member, so the sandbox knows them; a number it cannot dial is refused like Voiso would.
    const bad = await lead({ phone: '+44 7700 900321' });
    const res = await call(2, 'POST', '/admin/crm/voiso/startCall', { leadId: bad.id, agentEmail: 'nobody@x.test' });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe('Voiso did not start the call: User not found');
    expect((await call(2, 'GET', `/admin/leads/${bad.id}/calls`)).json().data[0]).toMatchObject({
      provider: 'sandbox',
      status: 'failed',
      reason: 'Voiso did not start the call: User not found',
    });
  });

  it('steps aside once a real Voiso is saved in Trade APIs', async () => {
    const { id } = await lead({ agentId: ids.agent });
    expect(
      (await call(1, 'PUT', '/admin/apis/voiso', { key: 'voiso', value1: 'cc-real01', value2: 'k'.repeat(40) }))
        .statusCode,
    ).toBe(200);
    const before = (await voisoSandbox(t.ctx)).calls.length;
    const res = await call(5, 'POST', '/admin/crm/voiso/startCall', { leadId: id });
    expect(res.statusCode).toBe(502);
    expect((await voisoSandbox(t.ctx)).calls.length).toBe(before);
    expect((await call(5, 'GET', `/admin/leads/${id}/calls`)).json().data[0]).toMatchObject({
      provider: 'voiso',
      status: 'failed',
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../../test/helpers.ts';
import { crmCalls } from '../../db/schema.ts';
import { callEndedToken, parseCallEnd } from './call-ended.ts';
import { recordCall } from './call-log.ts';
import { crmKit } from './crm-testing.ts';
import { voisoSandbox } from './telephony.ts';

/** A call's duration and disposition in the call log, from the telephony's report of its end. */
const kit = crmKit();
const { ids, call, lead } = kit;
let t: TestApp;

beforeAll(async () => {
  t = await kit.start({
    VOISO_SANDBOX: 'true',
    VOISO_BASE_URL: 'http://127.0.0.1:1/{cluster}',
    VOISO_TIMEOUT_MS: '500',
  });
});
afterAll(async () => t.close());

const callsOf = async (leadId: number) => (await call(5, 'GET', `/admin/leads/${leadId}/calls`)).json().data;

describe("Voiso's call-ended reports", () => {
  it('reads Call Outcome Logging and the outbound call webhooks; nothing else', () => {
    expect(
      parseCallEnd({
        uuid: '07771c38-c159-4965-a878-be0162118b2b',
        agent_extension: '111',
        start_time: 1630664544.661,
        end_time: 1630664575.994,
        type: 'callback',
        duration: 31.333,
        disposition: 'answered',
        ani: '443336006114',
        dnis: '18885658889',
      }),
    ).toEqual({ callId: '07771c38-c159-4965-a878-be0162118b2b', durationS: 31, disposition: 'answered' });
    expect(
      parseCallEnd({
        event: 'outbound.call.hangup',
        object: 'call',
        secret: 'htuGG937kQp',
        data: {
          id: 'c4d27999-e3f4-4dc8-1234-2cc83644a1b9',
          type: 'outbound',
          duration: { total: 48, dialing_time: 6 },
        },
      }),
    ).toEqual({ callId: 'c4d27999-e3f4-4dc8-1234-2cc83644a1b9', durationS: 48, disposition: null });
    expect(parseCallEnd({ uuid: 'x', duration: -1 })).toBeNull();
    expect(parseCallEnd({ uuid: 'x', duration: 90_000 })).toBeNull();
    expect(parseCallEnd({ uuid: 'x y', duration: 3 })).toBeNull();
    expect(parseCallEnd({ event: 'outbound.call.answered', data: { id: 'x', duration: { total: 3 } } })).toBeNull();
    expect(parseCallEnd('uuid')).toBeNull();
  });

  it('fills the duration of a sandbox call when it ends', async () => {
    const { id } = await lead({ agentId: ids.agent, phone: '+44 7700 900456' });
    const res = await call(5, 'POST', '/admin/crm/voiso/startCall', { leadId: id });
    expect(res.statusCode, res.body).toBe(200);
    expect((await callsOf(id))[0]).toMatchObject({ status: 'started', duration_s: null, disposition: null });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await (await voisoSandbox(t.ctx)).hangUp(res.json().call_id)).toBe(true);
    const [logged] = await callsOf(id);
    expect(logged).toMatchObject({ provider: 'sandbox', disposition: 'answered' });
    expect(logged.duration_s).toBeGreaterThanOrEqual(1);
    expect(logged.duration_s).toBeLessThan(30);
    // The agent is free again, and a call that ended cannot end twice.
    expect((await call(5, 'GET', '/admin/crm/voiso/agents')).json().me.status).toBe('available');
    expect(await (await voisoSandbox(t.ctx)).hangUp(res.json().call_id)).toBe(false);
  });

  it("puts Voiso's report on the call by its id, at the address Trade APIs shows", async () => {
    const apiKey = 'k'.repeat(40);
    expect(
      (await call(1, 'PUT', '/admin/apis/voiso', { key: 'voiso', value1: 'cc-real01', value2: apiKey })).statusCode,
    ).toBe(200);
    const shown = (await call(1, 'GET', '/admin/apis')).json().find((s: { key: string }) => s.key === 'voiso');
    const path = `/api/crm/voiso/call-ended/${callEndedToken(apiKey)}`;
    expect(shown.value3).toBe(path);

    const { id } = await lead({ agentId: ids.agent });
    const callId = 'c4d27999-e3f4-4dc8-1234-2cc83644a1b9';
    await recordCall(t.ctx.db, {
      leadId: id,
      callerId: ids.agent,
      agent: 'agent@demo.test',
      numberTail: null,
      provider: 'voiso',
      callId,
      status: 'started',
    });
    const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object });

    // Wrong token: no such address. A body in neither form: 400 and nothing written.
    expect((await post(`/api/crm/voiso/call-ended/${'0'.repeat(40)}`, { uuid: callId, duration: 5 })).statusCode).toBe(
      404,
    );
    const bad = await post(path, { uuid: callId, duration: 'long' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/call-ended report/);
    expect((await callsOf(id))[0].duration_s).toBeNull();

    const hangup = await post(path, {
      event: 'outbound.call.hangup',
      secret: 'x',
      data: { id: callId, duration: { total: 48 } },
    });
    expect(hangup.statusCode, hangup.body).toBe(200);
    expect(hangup.json()).toEqual({ received: true, matched: true });
    expect((await callsOf(id))[0]).toMatchObject({ duration_s: 48, disposition: null });

    const logged = await post(path, { uuid: callId, duration: 52.6, disposition: 'answered', account_id: String(id) });
    expect(logged.json()).toEqual({ received: true, matched: true });
    expect((await callsOf(id))[0]).toMatchObject({ duration_s: 53, disposition: 'answered' });

    // A call the log does not know (dialled from Voiso's own softphone) is acknowledged, so Voiso does not retry.
    expect((await post(path, { uuid: 'unknown-call', duration: 9 })).json()).toEqual({
      received: true,
      matched: false,
    });
    // A sandbox call with the same id is not Voiso's.
    const [row] = await t.ctx.db.select().from(crmCalls).where(eq(crmCalls.callId, callId));
    expect(row.provider).toBe('voiso');
  });
});

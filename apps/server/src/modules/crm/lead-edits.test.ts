import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { TestApp } from '../../../test/helpers.ts';
import { auditLogs, leads } from '../../db/schema.ts';
import { putSetting } from '../settings/service.ts';
import { crmKit } from './crm-testing.ts';

let t: TestApp;
const { ids, call, lead, listIds, row, start } = crmKit();

beforeAll(async () => {
  t = await start();
});
afterAll(async () => t.close());

describe('add, edit, delete', () => {
  it('adds a lead with the default status (admin: manual; manager: managed by them; affiliate: their own); agents cannot', async () => {
    const res = await call(1, 'POST', '/admin/leads', {
      firstName: 'Nora',
      lastName: 'Added',
      email: 'Nora.Added@Example.com',
      phone: '+34 600 000 001',
      country: 'Spain',
      city: 'Madrid',
      funnelLink: 'https://x.example.com/f',
      reference: 'R1',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Leads added successfully');
    expect(await row(res.json().id)).toMatchObject({
      leadStatus: 'New',
      group: 'sales',
      source: 'manual',
      email: 'nora.added@example.com',
      managerId: null,
    });
    const byManager = (await call(2, 'POST', '/admin/leads', { firstName: 'M', leadStatus: 'Contacted' })).json().id;
    expect(await row(byManager)).toMatchObject({ managerId: ids.manager, leadStatus: 'Contacted' });
    const byAffiliate = (await call(4, 'POST', '/admin/leads', { firstName: 'A' })).json().id;
    expect(await row(byAffiliate)).toMatchObject({ userId: ids.affiliate, source: 'affiliate' });
    for (const who of [3, 5, 6])
      expect((await call(who, 'POST', '/admin/leads', { firstName: 'X' })).statusCode).toBe(403);
    expect((await call(null, 'POST', '/admin/leads', { firstName: 'X' })).statusCode).toBe(401);
    for (const body of [
      {},
      { firstName: '' },
      { firstName: 'X', email: 'nope' },
      { firstName: 'X', country: 'Atlantis' },
      { firstName: 'X', leadStatus: 'Unknown' },
      { firstName: 'X\u0000' },
    ])
      expect((await call(1, 'POST', '/admin/leads', body)).statusCode, JSON.stringify(body)).toBe(400);
  });

  it('edits: admins everything, managers all but the manager, agents the plain fields of their own leads only', async () => {
    const l = await lead({ agentId: ids.agent });
    const full = {
      firstName: 'Edited',
      lastName: 'Lead',
      email: 'edited@example.com',
      phone: '+1 555 0100',
      country: 'Canada',
      city: 'Toronto',
      funnelLink: '',
      reference: 'ref',
      leadSourceId: 'src-1',
      leadStatus: 'Interested',
      managerId: ids.manager,
      agentId: ids.agent2,
      retId: ids.retention,
    };
    expect((await call(1, 'PUT', `/admin/leads/${l.id}`, full)).json()).toEqual({
      message: 'Lead edited successfully',
    });
    expect(await row(l.id)).toMatchObject({
      firstName: 'Edited',
      leadStatus: 'Interested',
      managerId: ids.manager,
      agentId: ids.agent2,
      retId: ids.retention,
      leadSourceId: 'src-1',
    });
    expect((await call(2, 'PUT', `/admin/leads/${l.id}`, { ...full, managerId: -2, agentId: -2 })).statusCode).toBe(
      200,
    );
    expect(await row(l.id)).toMatchObject({ managerId: ids.manager, agentId: null });
    // Assignees must have the picker's role.
    expect((await call(1, 'PUT', `/admin/leads/${l.id}`, { ...full, agentId: ids.retention })).statusCode).toBe(400);
    expect((await call(1, 'PUT', `/admin/leads/${l.id}`, { ...full, managerId: -5 })).statusCode).toBe(400);
    // The agent of the lead edits text fields; status and assignment stay.
    await t.ctx.db.update(leads).set({ agentId: ids.agent }).where(eq(leads.id, l.id));
    await putSetting(t.ctx.db, 'showUserInfoAgent', { value1: 'on' });
    expect(
      (
        await call(5, 'PUT', `/admin/leads/${l.id}`, {
          ...full,
          firstName: 'ByAgent',
          leadStatus: 'New',
          agentId: -2,
          retId: -2,
        })
      ).statusCode,
    ).toBe(200);
    expect(await row(l.id)).toMatchObject({
      firstName: 'ByAgent',
      leadStatus: 'Interested',
      agentId: ids.agent,
      retId: ids.retention,
    });
    await putSetting(t.ctx.db, 'showUserInfoAgent', { value1: 'off' });
    expect((await call('agent2', 'PUT', `/admin/leads/${l.id}`, full)).statusCode).toBe(404);
    expect((await call('retention2', 'PUT', `/admin/leads/${l.id}`, full)).statusCode).toBe(404);
    for (const who of [3, 4]) expect((await call(who, 'PUT', `/admin/leads/${l.id}`, full)).statusCode).toBe(403);
    expect((await call(1, 'PUT', '/admin/leads/999999', full)).statusCode).toBe(404);
    const audits = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.subjectType, 'lead'), eq(auditLogs.subjectId, l.id)));
    expect(audits.filter((a) => a.action === 'lead.update')).toHaveLength(3);
    const history = (await call(5, 'GET', `/admin/leads/${l.id}/history`)).json().data;
    expect(history[0]).toMatchObject({ action: 'lead.update', actor: 'Sam Sales' });
    expect(JSON.stringify(history)).not.toContain('edited@example.com');
    expect((await call('agent2', 'GET', `/admin/leads/${l.id}/history`)).statusCode).toBe(404);
  });

  it('deletes softly: hidden from every list, kept in the database; affiliates delete only their own', async () => {
    const l = await lead();
    expect((await call(5, 'DELETE', `/admin/leads/${l.id}`)).statusCode).toBe(403);
    expect((await call(2, 'DELETE', `/admin/leads/${l.id}`)).json()).toEqual({ message: 'Lead deleted successfully' });
    expect(await listIds(1, `/affiliate/leads/api/sales/All/all?search=${l.name}`)).toEqual([]);
    expect((await row(l.id)).deletedAt).not.toBeNull();
    expect((await call(1, 'DELETE', `/admin/leads/${l.id}`)).statusCode).toBe(404);
    const aff = await lead({ userId: ids.affiliate2, source: 'affiliate' });
    expect((await call(4, 'DELETE', `/affiliate/leads/${aff.id}`)).statusCode).toBe(404);
    expect((await call('affiliate2', 'DELETE', `/affiliate/leads/${aff.id}`)).statusCode).toBe(200);
  });
});

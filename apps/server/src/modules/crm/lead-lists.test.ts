import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { putSetting } from '../settings/service.ts';
import { crmKit, type Who } from './crm-testing.ts';

let t: TestApp;
const { ids, call, lead, listIds, row, start } = crmKit();

beforeAll(async () => {
  t = await start();
});
afterAll(async () => t.close());

describe('lead lists', () => {
  it('shows each list its group and source, filtered by status (underscores for spaces) and registered date', async () => {
    const manual = await lead({
      source: 'manual',
      leadStatus: 'Not Interested',
      createdAt: new Date('2026-03-10T12:00:00Z'),
    });
    const live = await lead({ source: 'live' });
    const retained = await lead({ group: 'retentions' });
    const archived = await lead({ group: 'archived' });
    const client = await lead({ group: 'clients' });
    const aff = await lead({ source: 'affiliate', userId: ids.affiliate });
    expect(await listIds(1, '/affiliate/leads/api/sales/All/all?limit=100')).toEqual(
      expect.arrayContaining([manual.id, live.id, aff.id]),
    );
    expect(await listIds(1, '/affiliate/leads/api/sales/All/manual?limit=100')).not.toContain(live.id);
    expect(await listIds(1, '/affiliate/leads/api/sales/All/live?limit=100')).toContain(live.id);
    expect(await listIds(1, `/affiliate/leads/api/sales/Not_Interested/all?search=${manual.name}`)).toEqual([
      manual.id,
    ]);
    expect(await listIds(1, `/affiliate/leads/api/sales/New/all?search=${manual.name}`)).toEqual([]);
    expect(await listIds(1, `/affiliate/leads/api/sales/All/all/2026-03-10/2026-03-10?search=${manual.name}`)).toEqual([
      manual.id,
    ]);
    expect(await listIds(1, `/affiliate/leads/api/sales/All/all/2026-03-11/2026-04-01?search=${manual.name}`)).toEqual(
      [],
    );
    expect(await listIds(1, `/affiliate/leads/api/retentions/All?search=${retained.name}`)).toEqual([retained.id]);
    expect(await listIds(1, `/affiliate/leads/api/archived/All?search=${archived.name}`)).toEqual([archived.id]);
    expect(await listIds(1, `/affiliate/leads/api/clients/All?search=${client.name}`)).toEqual([client.id]);
    expect(await listIds(2, `/affiliate/leads/api/new/All/live?search=${live.name}`)).toEqual([live.id]);
    expect(await listIds(2, `/affiliate/leads/api/new/All/manual?search=${live.name}`)).toEqual([]);
    expect(await listIds(2, `/affiliate/leads/api?search=${aff.name}`)).toEqual([aff.id]);
    expect(await listIds(1, `/affiliate/leads/api?status=New&startDate=2020-01-01&search=${aff.name}`)).toEqual([
      aff.id,
    ]);

    const item = (await call(1, 'GET', `/affiliate/leads/api/sales/All/all?search=${aff.name}`)).json().data[0];
    expect(item).toMatchObject({
      id: aff.id,
      first_name: aff.name,
      last_name: 'Lead',
      email: `${aff.name}@mail.example.com`,
      lead_status: 'New',
      group: 'sales',
      source: 'affiliate',
      user: { id: ids.affiliate, full_name: 'Alex Affiliate' },
      linked: null,
      role_id: null,
      notes: [],
      masked: false,
      ftd_at: null,
    });
  });

  it('refuses bad input with 400', async () => {
    for (const url of [
      '/affiliate/leads/api/sales/All/other',
      '/affiliate/leads/api/sales/All/all/2026-02-30/2026-03-01',
      '/affiliate/leads/api/sales/All/all/2026-03-02/2026-03-01',
      '/affiliate/leads/api/new/All/all',
      '/affiliate/leads/api/clients/All?limit=1000',
      '/affiliate/leads/api/retentions/All?retId=abc',
      '/affiliate/leads/api?startDate=yesterday',
    ])
      expect((await call(1, 'GET', url)).statusCode, url).toBe(400);
  });

  it('keeps each role to its lists and its own leads', async () => {
    const mine = await lead({ agentId: ids.agent });
    const theirs = await lead({ agentId: ids.agent2 });
    const ret = await lead({ group: 'retentions', retId: ids.retention });
    const ret2 = await lead({ group: 'retentions', retId: ids.retention2 });
    const aff = await lead({ source: 'affiliate', userId: ids.affiliate });
    const aff2 = await lead({ source: 'affiliate', userId: ids.affiliate2 });
    const agentSees = await listIds(5, '/affiliate/leads/api/sales/All/all?limit=100');
    expect(agentSees).toContain(mine.id);
    expect(agentSees).not.toContain(theirs.id);
    expect(await listIds('agent2', '/affiliate/leads/api/sales/All/all?limit=100')).toEqual([theirs.id]);
    expect(await listIds(6, `/affiliate/leads/api/retentions/All?search=${ret.name}`)).toEqual([ret.id]);
    expect(await listIds(6, `/affiliate/leads/api/retentions/All?search=${ret2.name}`)).toEqual([]);
    expect(await listIds(4, `/affiliate/leads/api?search=${aff.name}`)).toEqual([aff.id]);
    expect(await listIds(4, `/affiliate/leads/api?search=${aff2.name}`)).toEqual([]);
    // Managers see every lead (docs/decisions.md, CRM).
    expect(await listIds(2, `/affiliate/leads/api/sales/All/all?search=${theirs.name}`)).toEqual([theirs.id]);
    // The agent filters belong to admins and managers.
    expect(await listIds(1, `/affiliate/leads/api/sales/All/all?agentId=${ids.agent2}`)).toEqual([theirs.id]);
    expect(await listIds(1, `/affiliate/leads/api/retentions/All?retId=${ids.retention2}`)).toEqual([ret2.id]);
    expect((await call(5, 'GET', `/affiliate/leads/api/sales/All/all?agentId=${ids.agent}`)).statusCode).toBe(403);
    expect((await call(6, 'GET', `/affiliate/leads/api/retentions/All?retId=${ids.retention}`)).statusCode).toBe(403);
    // Lists by role (menu).
    const refused: Array<[Who, string]> = [
      [6, '/affiliate/leads/api/sales/All/all'],
      [4, '/affiliate/leads/api/sales/All/all'],
      [3, '/affiliate/leads/api/sales/All/all'],
      [5, '/affiliate/leads/api/retentions/All'],
      [5, '/affiliate/leads/api/clients/All'],
      [6, '/affiliate/leads/api/archived/All'],
      [5, '/affiliate/leads/api'],
      [3, '/affiliate/leads/api'],
      [4, '/affiliate/leads/api/clients/All'],
    ];
    for (const [who, url] of refused) expect((await call(who, 'GET', url)).statusCode, `${who} ${url}`).toBe(403);
    expect((await call(null, 'GET', '/affiliate/leads/api/sales/All/all')).statusCode).toBe(401);
  });

  it('masks emails and phones for agents while showUserInfoAgent is off, and cannot be searched by them', async () => {
    const l = await lead({ agentId: ids.agent, email: 'jonathan.doe@mail.example.com', phone: '+44 7700 900187' });
    await putSetting(t.ctx.db, 'showUserInfoAgent', { value1: 'off' });
    const masked = (await call(5, 'GET', `/affiliate/leads/api/sales/All/all?search=${l.name}`)).json().data[0];
    expect(masked).toMatchObject({ email: 'jooe****@mail.example.com', phone: '******87', masked: true });
    expect(JSON.stringify((await call(5, 'GET', `/affiliate/leads/api/sales/All/all?limit=100`)).json())).not.toContain(
      'jonathan.doe',
    );
    expect(await listIds(5, '/affiliate/leads/api/sales/All/all?search=jonathan.doe')).toEqual([]);
    // The CSV export is the same rows as the screen: masked for the agent, real for an admin.
    const agentCsv = await call(5, 'GET', `/affiliate/leads/api/sales/All/all?format=csv&search=${l.name}`);
    expect(agentCsv.statusCode).toBe(200);
    expect(agentCsv.headers['content-type']).toContain('text/csv');
    expect(agentCsv.body).toContain('jooe****@mail.example.com');
    expect(agentCsv.body).toContain('******87');
    expect(agentCsv.body).not.toContain('jonathan.doe');
    expect((await call(1, 'GET', `/affiliate/leads/api/sales/All/all?format=csv&search=${l.name}`)).body).toContain(
      'jonathan.doe@mail.example.com',
    );
    expect((await call(1, 'GET', `/affiliate/leads/api/sales/All/all?search=${l.name}`)).json().data[0].email).toBe(
      'jonathan.doe@mail.example.com',
    );
    await putSetting(t.ctx.db, 'showUserInfoAgent', { value1: 'on' });
    expect((await call(5, 'GET', `/affiliate/leads/api/sales/All/all?search=${l.name}`)).json().data[0]).toMatchObject({
      email: 'jonathan.doe@mail.example.com',
      masked: false,
    });
    await putSetting(t.ctx.db, 'showUserInfoAgent', { value1: 'off' });
    // A masked agent's form leaves email and phone out; whatever is sent for them, the real ones stay.
    expect((await call(5, 'PUT', `/admin/leads/${l.id}`, { firstName: 'Jon' })).statusCode).toBe(200);
    expect(
      (
        await call(5, 'PUT', `/admin/leads/${l.id}`, {
          firstName: 'Jon',
          email: 'other@example.com',
          phone: '+1 555 0199',
        })
      ).statusCode,
    ).toBe(200);
    expect(await row(l.id)).toMatchObject({
      firstName: 'Jon',
      email: 'jonathan.doe@mail.example.com',
      phone: '+44 7700 900187',
    });
  });
});

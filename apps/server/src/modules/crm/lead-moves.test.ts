import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { TestApp } from '../../../test/helpers.ts';
import { auditLogs, leads } from '../../db/schema.ts';
import { crmKit, type Who } from './crm-testing.ts';

let t: TestApp;
const { ids, call, lead, row, start } = crmKit();

beforeAll(async () => {
  t = await start();
});
afterAll(async () => t.close());

describe('bulk moves and assignment', () => {
  it('moves groups as §4 allows, audited; refuses other moves as a whole', async () => {
    const a = await lead();
    const b = await lead();
    const move = (who: Who, ids2: number[], group: string) =>
      call(who, 'PUT', '/admin/leads/bulk', { ids: ids2, data: { group } });
    expect((await move(1, [a.id, b.id], 'retentions')).json()).toEqual({ message: 'Lead moved successfully' });
    expect((await row(a.id)).group).toBe('retentions');
    expect((await move(1, [a.id], 'archived')).statusCode).toBe(200);
    // Archived goes back to sales only; the whole request fails when one lead cannot move.
    expect((await move(1, [a.id, b.id], 'archived')).statusCode).toBe(200);
    expect((await move(1, [a.id], 'retentions')).statusCode).toBe(409);
    expect((await move(2, [a.id, b.id], 'sales')).statusCode).toBe(200);
    expect([(await row(a.id)).group, (await row(b.id)).group]).toEqual(['sales', 'sales']);
    const c = await lead({ group: 'clients' });
    for (const g of ['sales', 'retentions', 'archived']) {
      await t.ctx.db.update(leads).set({ group: 'clients' }).where(eq(leads.id, c.id));
      expect((await move(1, [c.id], g)).statusCode).toBe(200);
    }
    expect((await move(1, [c.id], 'clients')).statusCode).toBe(400);
    const moves = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'lead.move'), eq(auditLogs.subjectId, a.id)));
    expect(moves.map((m) => [m.before, m.after])).toEqual([
      [{ group: 'sales' }, { group: 'retentions' }],
      [{ group: 'retentions' }, { group: 'archived' }],
      [{ group: 'archived' }, { group: 'sales' }],
    ]);
  });

  it('assigns sales and retention agents (admins, managers); -2 unassigns; the selection must be in scope', async () => {
    const a = await lead();
    const b = await lead({ group: 'retentions' });
    expect(
      (await call(1, 'PUT', '/admin/leads/bulk', { ids: [a.id, b.id], data: { agentId: ids.agent } })).json(),
    ).toEqual({ message: 'Agents assigned successfully' });
    expect(
      (await call(2, 'PUT', '/admin/leads/bulk', { ids: [b.id], data: { retId: ids.retention } })).statusCode,
    ).toBe(200);
    expect(await row(b.id)).toMatchObject({ agentId: ids.agent, retId: ids.retention });
    expect((await call(1, 'PUT', '/admin/leads/bulk', { ids: [a.id], data: { agentId: -2 } })).statusCode).toBe(200);
    expect((await row(a.id)).agentId).toBeNull();
    expect(
      (await call(1, 'PUT', '/admin/leads/bulk', { ids: [a.id], data: { agentId: ids.retention } })).statusCode,
    ).toBe(400);
    expect(
      (await call(1, 'PUT', '/admin/leads/bulk', { ids: [a.id, 999999], data: { agentId: ids.agent } })).statusCode,
    ).toBe(404);
    expect((await row(a.id)).agentId).toBeNull();
    expect(
      await t.ctx.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'lead.assign_retention'), eq(auditLogs.subjectId, b.id))),
    ).toHaveLength(1);
    for (const body of [
      {},
      { ids: [], data: { group: 'sales' } },
      { ids: [a.id] },
      { ids: [a.id], data: { group: 'sales', agentId: 1 } },
      { ids: ['x'], data: { group: 'sales' } },
      { ids: [a.id], data: { agentId: 'abc' } },
    ])
      expect((await call(1, 'PUT', '/admin/leads/bulk', body)).statusCode, JSON.stringify(body)).toBe(400);
  });

  it('lets agents move their own leads to retentions or archive, never to sales, never assign, never touch others', async () => {
    const mine = await lead({ agentId: ids.agent });
    const theirs = await lead({ agentId: ids.agent2 });
    expect(
      (await call(5, 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { agentId: ids.agent2 } })).statusCode,
    ).toBe(403);
    expect(
      (await call(6, 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { retId: ids.retention } })).statusCode,
    ).toBe(403);
    expect(
      (await call(5, 'PUT', '/admin/leads/bulk', { ids: [mine.id, theirs.id], data: { group: 'archived' } }))
        .statusCode,
    ).toBe(404);
    expect((await row(mine.id)).group).toBe('sales');
    expect(
      (await call(5, 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { group: 'retentions' } })).statusCode,
    ).toBe(200);
    await t.ctx.db.update(leads).set({ retId: ids.retention }).where(eq(leads.id, mine.id));
    expect((await call(6, 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { group: 'sales' } })).statusCode).toBe(
      403,
    );
    expect(
      (await call('retention2', 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { group: 'archived' } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(6, 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { group: 'archived' } })).statusCode,
    ).toBe(200);
    for (const who of [3, 4])
      expect(
        (await call(who, 'PUT', '/admin/leads/bulk', { ids: [mine.id], data: { group: 'sales' } })).statusCode,
      ).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { newVerifiedCustomer, type TestApp } from '../../../test/helpers.ts';
import { balances, leads, users } from '../../db/schema.ts';
import { customerQuery } from '../customer-360/filters.ts';
import { countLeads, filteredLeads, leadCustomerFilter, newestLeadIds, sortedLeadIds } from './lead-customers.ts';
import { crmKit, type Who } from './crm-testing.ts';

/**
 * Customer 360 in the CRM lead lists: each lead shows its customer's figures, and the lists filter and sort by them
 * on the server, in each viewer's scope; affiliates get none of it.
 */
let t: TestApp;
const { ids, call, lead, start } = crmKit();
const leadIds: Record<string, number> = {};

/** A customer with a main real wallet, its balance and floating P/L, KYC state and first deposit. */
async function customer(balance: string, kyc: 'none' | 'pending' | 'approved', ftd: string | null): Promise<number> {
  const { id } = await newVerifiedCustomer(t, 'lead360');
  await t.ctx.db
    .update(balances)
    .set({ balance, floatingPl: '0' })
    .where(and(eq(balances.userId, id), eq(balances.main, true)));
  await t.ctx.db
    .update(users)
    .set({ kycStatus: kyc, ftdAt: ftd ? new Date(`${ftd}T10:00:00Z`) : null, ftdAmount: ftd ? '250' : null })
    .where(eq(users.id, id));
  return id;
}

const list = async (who: Who, url: string) => {
  const res = await call(who, 'GET', url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    data: Array<{ id: number; customer: Record<string, unknown> | null }>;
    meta: { total: number };
  };
};
const order = async (who: Who, url: string) => (await list(who, url)).data.map((r) => r.id);
const retentions = (q: string) => `/affiliate/leads/api/retentions/All?search=Ryxo360&${q}`;

beforeAll(async () => {
  t = await start();
  const c1 = await customer('1000', 'pending', '2026-01-05');
  const c2 = await customer('3000', 'approved', '2026-02-05');
  const c3 = await customer('200', 'pending', null);
  const c4 = await customer('50', 'approved', '2026-03-01');
  const c5 = await customer('9999', 'approved', '2026-03-02');
  const add = async (key: string, extra: Parameters<typeof lead>[0]) => {
    leadIds[key] = (await lead({ lastName: 'Ryxo360', ...extra })).id;
  };
  await add('L1', { group: 'retentions', linkedUserId: c1, retId: ids.retention });
  await add('L2', { group: 'retentions', linkedUserId: c2, retId: ids.retention2 });
  await add('L3', { group: 'retentions', retId: ids.retention });
  await add('L4', { group: 'retentions', linkedUserId: c3, retId: ids.retention });
  await add('S1', { group: 'sales', linkedUserId: c4, agentId: ids.agent });
  await add('S2', { group: 'sales', linkedUserId: c5, agentId: ids.agent2 });
  await add('A1', { group: 'sales', source: 'affiliate', userId: ids.affiliate, linkedUserId: null });
  await add('X1', { group: 'archived' });
  await add('X2', { group: 'archived' });
});
afterAll(async () => t.close());

const L = (...keys: string[]) => keys.map((k) => leadIds[k]);

describe('lead lists, Customer 360', () => {
  it("shows each lead its customer's wallet, first deposit and KYC state, and nothing without a customer", async () => {
    const { data } = await list(1, retentions('sort=equity'));
    expect(data[0].customer).toMatchObject({
      balance: '3000.00000000',
      equity: '3000.00',
      currency: 'USD',
      kyc_status: 'approved',
      ftd_at: '2026-02-05T10:00:00.000Z',
      ftd_amount: '250.00000000',
      online: false,
    });
    expect(data.find((r) => r.id === leadIds.L3)?.customer).toBeNull();
  });

  it('sorts by the customer figure, leads without a customer after the others, across pages', async () => {
    expect(await order(1, retentions('sort=equity&dir=desc'))).toEqual(L('L2', 'L1', 'L4', 'L3'));
    expect(await order(1, retentions('sort=equity&dir=asc'))).toEqual(L('L4', 'L1', 'L2', 'L3'));
    expect(await order(1, retentions('sort=balance&dir=desc&limit=2&page=2'))).toEqual(L('L4', 'L3'));
    expect(await order(1, retentions('sort=ftd_at&dir=desc'))).toEqual(L('L2', 'L1', 'L4', 'L3'));
    expect(await order(1, retentions('sort=kyc_status&dir=asc'))).toEqual(L('L2', 'L1', 'L4', 'L3'));
    // Nobody online: every lead follows, newest first.
    expect(await order(1, retentions('sort=online'))).toEqual(L('L4', 'L3', 'L2', 'L1'));
    expect((await list(1, retentions('sort=equity&limit=2&page=2'))).meta.total).toBe(4);
    // A list without a customer among its leads is its own order, in the asked direction.
    const archived = '/affiliate/leads/api/archived/All?search=Ryxo360&sort=equity';
    expect(await order(1, `${archived}&dir=asc`)).toEqual(L('X1', 'X2'));
    expect(await order(1, `${archived}&dir=desc&limit=1&page=2`)).toEqual(L('X1'));
  });

  it("filters by the customer's KYC state, first deposit and ranges (leads without a customer never match)", async () => {
    expect(await order(1, retentions('kyc=pending&sort=equity'))).toEqual(L('L1', 'L4'));
    expect(await order(1, retentions('ftd=yes'))).toEqual(L('L2', 'L1'));
    expect(await order(1, retentions('ftd=no'))).toEqual(L('L4'));
    expect(await order(1, retentions('ftdFrom=2026-02-01'))).toEqual(L('L2'));
    expect(await order(1, retentions('equityMin=500&equityMax=3000&sort=equity&dir=asc'))).toEqual(L('L1', 'L2'));
    expect(await order(1, retentions('balanceMax=100'))).toEqual([]);
    expect((await list(1, retentions('kyc=pending'))).meta.total).toBe(2);
    expect(await order(1, retentions('online=yes'))).toEqual([]);
  });

  it('keeps agents to their own leads whatever the sort and filters', async () => {
    expect(await order(6, retentions('sort=equity&dir=desc'))).toEqual(L('L1', 'L4', 'L3'));
    expect(await order(6, retentions('kyc=approved'))).toEqual([]);
    expect(await order('retention2', retentions('sort=equity'))).toEqual(L('L2'));
    const sales = '/affiliate/leads/api/sales/All/all?search=Ryxo360';
    expect(await order(5, `${sales}&sort=equity&dir=desc`)).toEqual(L('S1'));
    expect(await order(5, `${sales}&kyc=approved`)).toEqual(L('S1'));
    expect(await order('agent2', `${sales}&sort=balance`)).toEqual(L('S2'));
    // Admins and managers see every lead.
    expect(await order(2, `${sales}&sort=equity&dir=desc`)).toEqual(L('S2', 'S1', 'A1'));
  });

  it('gives affiliates no customer figures, and refuses them the customer sorts and filters', async () => {
    const own = await list(4, '/affiliate/leads/api?search=Ryxo360');
    expect(own.data.map((r) => r.id)).toEqual(L('A1'));
    expect(own.data[0].customer).toBeNull();
    for (const q of ['sort=equity', 'kyc=pending', 'ftd=yes', 'balanceMin=1', 'online=yes'])
      expect((await call(4, 'GET', `/affiliate/leads/api?${q}`)).statusCode, q).toBe(403);
  });

  it('pages alike whether it reads the few customers first or walks the figure from the top', async () => {
    const base = and(isNull(leads.deletedAt), eq(leads.group, 'retentions'), eq(leads.lastName, 'Ryxo360'))!;
    for (const [sort, dir] of [
      ['equity', 'desc'],
      ['balance', 'asc'],
      ['ftd_at', 'desc'],
      ['kyc_status', 'asc'],
    ] as const) {
      const customer = await customerQuery(t.ctx, { sort, dir });
      for (const page of [
        { limit: 15, offset: 0 },
        { limit: 2, offset: 1 },
        { limit: 2, offset: 3 },
      ]) {
        const sorted = await sortedLeadIds(t.ctx.db, base, undefined, customer, page);
        const walked = await sortedLeadIds(t.ctx.db, base, undefined, customer, page, 0);
        expect(walked, `${sort} ${dir} ${JSON.stringify(page)}`).toEqual(sorted);
      }
    }
  });

  it('filters alike whether it reads the few customers first or walks the list newest first', async () => {
    const base = and(isNull(leads.deletedAt), eq(leads.group, 'retentions'), eq(leads.lastName, 'Ryxo360'))!;
    for (const q of [
      { kyc: 'pending' },
      { ftd: 'yes' },
      { ftd: 'no' },
      { ftdFrom: '2026-01-01', ftdTo: '2026-02-28' },
      { equityMin: '100', equityMax: '3000' },
      { balanceMin: '150', kyc: 'pending' },
      { online: 'no' },
    ] as const) {
      const filter = leadCustomerFilter(await customerQuery(t.ctx, q))!;
      const few = (await filteredLeads(t.ctx.db, base, filter))!;
      // Fewer than one customer is never the case: the list is walked.
      const walked = (await filteredLeads(t.ctx.db, base, filter, 1))!;
      expect(walked.from, JSON.stringify(q)).not.toEqual(few.from);
      for (const page of [
        { limit: 15, offset: 0 },
        { limit: 1, offset: 1 },
      ])
        expect(await newestLeadIds(t.ctx.db, walked, page), JSON.stringify(q)).toEqual(
          await newestLeadIds(t.ctx.db, few, page),
        );
      expect(await countLeads(t.ctx.db, walked, 100)).toBe(await countLeads(t.ctx.db, few, 100));
    }
    // A list without a customer among its leads has nothing to read.
    const archived = and(isNull(leads.deletedAt), eq(leads.group, 'archived'), eq(leads.lastName, 'Ryxo360'))!;
    const pending = leadCustomerFilter(await customerQuery(t.ctx, { kyc: 'pending' }))!;
    expect(await filteredLeads(t.ctx.db, archived, pending)).toBeNull();
  });

  it('answers 400 to unknown sorts and states, malformed amounts and crossed ranges', async () => {
    for (const q of ['sort=leads.id', 'dir=upward', 'kyc=ok', 'ftd=1', 'equityMin=abc', 'balanceMin=9&balanceMax=1'])
      expect((await call(1, 'GET', retentions(q))).statusCode, q).toBe(400);
  });
});

import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { hashPassword } from '../../lib/crypto.ts';
import type { DbOrTx } from '../client.ts';
import {
  balances,
  orders,
  partnerClientHistory,
  partnerClients,
  partnerLinks,
  partnerPlans,
  partnerPlanVersions,
  partnerSweep,
  userProfiles,
  users,
} from '../schema.ts';
import { DEMO_PASSWORD } from './index.ts';

const DAY = 86_400_000;

/**
 * The demo introducing brokers, with the demo activity: a "Standard IB" commission plan, the demo affiliate as a top
 * partner with a sub-partner of their own (subpartner@demo.test), and a few of the month's active traders as their
 * clients since before they traded. The commissions themselves are not written here: the partners' catch-up pass
 * (partners.sweep, a minute after start) is told to look back over the month and accrues every deal and first deposit
 * through the ledger as it does for live ones, so the portal, the tree and the commission wallets show real figures.
 */
export async function seedDemoPartners(db: DbOrTx, now = Date.now()): Promise<void> {
  const [affiliate] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'affiliate@demo.test'));
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@demo.test'));
  if (!affiliate || !admin) return;
  const since = new Date(now - 120 * DAY);

  const [plan] = await db.insert(partnerPlans).values({ name: 'Standard IB', createdAt: since }).returning();
  await db.insert(partnerPlanVersions).values({
    planId: plan.id,
    effectiveFrom: since,
    name: 'Standard IB',
    currency: 'USD',
    // Per lot where a lot is a standard size (forex, commodities, indices); a share or a coin earns little or nothing.
    perLot: { forex: '5', commodity: '2', index: '1', stock: '0.02', crypto: '0' },
    spreadShare: '0',
    commissionShare: '20',
    cpa: '25',
    cpaMinDeposit: '100',
    levels: ['100', '20'],
    countDemo: false,
    minHoldSeconds: 60,
    createdBy: admin.id,
    createdAt: since,
  });

  const [sub] = await db
    .insert(users)
    .values({
      email: 'subpartner@demo.test',
      fullName: 'Sofia Subpartner',
      roleId: 4,
      passwordHash: await hashPassword(DEMO_PASSWORD),
      isEmailVerified: true,
      createdAt: since,
    })
    .returning({ id: users.id });
  await db.insert(userProfiles).values({
    userId: sub.id,
    phone: '+44 20 7946 0199',
    birthDate: '1988-09-03',
    country: 'United Kingdom',
    city: 'Manchester',
    address: '9 Demo Street',
    postalCode: 'M1 1AE',
  });
  await db.insert(partnerLinks).values([
    { userId: affiliate.id, planId: plan.id, parentId: null, updatedBy: admin.id, updatedAt: since, createdAt: since },
    {
      userId: sub.id,
      planId: plan.id,
      parentId: affiliate.id,
      updatedBy: admin.id,
      updatedAt: since,
      createdAt: since,
    },
  ]);

  // The month's traders with real closed deals, busiest first: three to the affiliate, three to the sub-partner.
  const traders = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(balances, and(eq(balances.userId, users.id), eq(balances.mode, 'real')))
    .innerJoin(orders, and(eq(orders.balanceId, balances.id), isNotNull(orders.closeTime), isNull(orders.voidedAt)))
    .where(and(eq(users.roleId, 3), sql`${users.email} <> 'client@demo.test'`))
    .groupBy(users.id)
    .orderBy(sql`count(*) desc`, asc(users.id))
    .limit(6);
  const reason = 'Introduced by the partner (demo)';
  for (const [i, t] of traders.entries()) {
    const partnerId = i < 3 ? affiliate.id : sub.id;
    await db
      .insert(partnerClients)
      .values({ customerId: t.id, partnerId, reason, assignedBy: admin.id, assignedAt: since })
      .onConflictDoNothing();
    await db.insert(partnerClientHistory).values({
      customerId: t.id,
      fromPartnerId: null,
      toPartnerId: partnerId,
      reason,
      actorId: admin.id,
      createdAt: since,
    });
  }

  // The first catch-up pass looks back over the demo month (and a margin) instead of its usual day.
  await db
    .insert(partnerSweep)
    .values({ id: 1, closedUpTo: new Date(now - 60 * DAY) })
    .onConflictDoUpdate({ target: partnerSweep.id, set: { closedUpTo: new Date(now - 60 * DAY) } });
}

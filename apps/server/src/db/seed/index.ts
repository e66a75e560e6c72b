import fs from 'node:fs';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import {
  balances,
  instruments,
  kycDocuments,
  languages,
  ledgerEntries,
  pricingPlans,
  settings,
  translations,
  userProfiles,
  users,
} from '../schema.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { seedInstruments } from './instruments.ts';
import { seedDemoGateways, seedGateways } from '../../modules/gateways/service.ts';
import { seedSalesStatuses } from '../../modules/crm/statuses.ts';
import { recomputeKycListStatuses } from '../../modules/kyc/list-status.ts';

export const DEMO_PASSWORD = 'Demo12345!';
export const DEMO_USERS = [
  { email: 'admin@demo.test', fullName: 'Ada Admin', roleId: 1 },
  { email: 'manager@demo.test', fullName: 'Max Manager', roleId: 2 },
  { email: 'client@demo.test', fullName: 'Chris Client', roleId: 3 },
  { email: 'affiliate@demo.test', fullName: 'Alex Affiliate', roleId: 4 },
  { email: 'agent@demo.test', fullName: 'Sam Sales', roleId: 5 },
  { email: 'retention@demo.test', fullName: 'Rita Retention', roleId: 6 },
] as const;

/** Settings records of the back-office spec with a careful broker's defaults. */
const DEFAULT_SETTINGS: Array<typeof settings.$inferInsert> = [
  {
    key: 'branding',
    value1: 'Trading Platform',
    value2: 'USD,EUR,GBP',
    value3: 'http://localhost:3000',
    value4: 'USD',
    value5: '10000',
    file: '/logo.svg',
  },
  { key: 'favicon', file: '/favicon.svg' },
  { key: 'authBackground', file: '/auth-background.svg' },
  { key: 'whatsapp', value1: '' },
  { key: 'kyc', value1: 'on', value2: 'on', value3: 'on' },
  { key: 'recaptcha', value1: '', value2: '', value3: 'off' },
  { key: 'pricingPlan', value1: 'on' },
  { key: 'emailVerify', value1: 'on' },
  { key: 'showUserInfoAgent', value1: 'off' },
  // Staff roles that must use two-factor sign-in (comma-separated role ids); none by default.
  { key: 'staffTwoFactor', value1: '' },
  { key: 'webhookApiKeyLeads', value1: '' },
  { key: 'spread_forex', value1: '1' },
  { key: 'spread_commodity', value1: '1' },
  { key: 'spread_index', value1: '1' },
  { key: 'spread_crypto', value1: '1' },
  { key: 'spread_stock', value1: '1' },
  { key: 'withdraw', value1: '0', value2: '0' },
  // The daily rollover at 17:00 New York; each category's triple-swap weekday and whether weekends are charged.
  { key: 'rollover', value1: '17:00', value2: 'America/New_York' },
  { key: 'swap_forex', value1: 'wednesday', value2: 'off' },
  { key: 'swap_commodity', value1: 'wednesday', value2: 'off' },
  { key: 'swap_index', value1: 'friday', value2: 'off' },
  { key: 'swap_stock', value1: 'friday', value2: 'off' },
  { key: 'swap_crypto', value1: 'none', value2: 'on' },
  // Lot settings: order size entered as lots (a preset list) or as a free amount, per category.
  { key: 'lot_forex', value1: 'lot' },
  { key: 'lot_commodity', value1: 'amount' },
  { key: 'lot_index', value1: 'amount' },
  { key: 'lot_stock', value1: 'amount' },
  { key: 'lot_crypto', value1: 'amount' },
  {
    key: 'lotSelector',
    value1: JSON.stringify([
      { label: 'Micro lot (0.01)', value: 1000 },
      { label: 'Mini lot (0.1)', value: 10000 },
      { label: 'Standard lot (1)', value: 100000 },
    ]),
  },
  // External market-data providers; each is off until staff enter its key (the simulated feed runs meanwhile).
  { key: 'polygonAPI', value1: '' },
  { key: 'eodAPI', value1: '' },
  { key: 'oandaAPI', value1: '', value2: '', value3: 'fxpractice' },
  { key: 'currencyAPI', value1: '', value2: '0', value3: '0' },
  { key: 'voiso', value1: '', value2: '' },
];

const LANGUAGES = [
  { name: 'English', code: 'en' },
  { name: 'Español', code: 'es' },
  { name: 'Français', code: 'fr' },
];

const localesDir = path.join(import.meta.dirname, 'locales');

/**
 * The translations the product ships: locales/{area}.{code}.json files map each English text (the key)
 * to its translation; all files of one language are merged.
 */
export function shippedTranslations(code: string): Record<string, string> {
  if (!fs.existsSync(localesDir)) return {};
  const merged: Record<string, string> = {};
  for (const file of fs
    .readdirSync(localesDir)
    .filter((f) => f.endsWith(`.${code}.json`))
    .sort())
    Object.assign(merged, JSON.parse(fs.readFileSync(path.join(localesDir, file), 'utf8')) as Record<string, string>);
  return merged;
}

/** Base data every installation needs: settings records, languages and shipped translations. Re-runnable. */
export async function seedBase(db: Db): Promise<void> {
  for (const s of DEFAULT_SETTINGS) await db.insert(settings).values(s).onConflictDoNothing();
  // The instrument universe goes in once; afterwards the broker's own edits and deletions stand.
  const [{ n }] = await db.select({ n: count() }).from(instruments);
  if (n === 0) await seedInstruments(db);
  await seedGateways(db);
  await seedSalesStatuses(db);
  for (const [i, l] of LANGUAGES.entries())
    await db
      .insert(languages)
      .values({ ...l, position: i })
      .onConflictDoNothing();
  for (const l of LANGUAGES) {
    const entries = Object.entries(shippedTranslations(l.code));
    for (let i = 0; i < entries.length; i += 500) {
      const chunk = entries.slice(i, i + 500).map(([key, value]) => ({ code: l.code, key, value }));
      await db.insert(translations).values(chunk).onConflictDoNothing();
    }
  }
}

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return row.n === 0;
}

/** Demo accounts (one per role), pricing plans and the demo client's funded wallets. Only into an empty database. */
export async function seedDemo(db: Db): Promise<void> {
  const plans = await db
    .insert(pricingPlans)
    .values([
      {
        name: 'Basic',
        description: 'Start trading with standard leverage.',
        price: '0',
        forexLeverage: 100,
        commodityLeverage: 50,
        indexLeverage: 50,
        stockLeverage: 10,
        cryptoLeverage: 5,
        forexStopout: 50,
        commodityStopout: 50,
        indexStopout: 50,
        stockStopout: 50,
        cryptoStopout: 50,
      },
      {
        name: 'Silver',
        description: 'Higher leverage and priority support.',
        price: '250',
        forexLeverage: 200,
        commodityLeverage: 100,
        indexLeverage: 100,
        stockLeverage: 20,
        cryptoLeverage: 10,
        forexStopout: 40,
        commodityStopout: 40,
        indexStopout: 40,
        stockStopout: 40,
        cryptoStopout: 40,
      },
      {
        name: 'Gold',
        description: 'Our best conditions for active traders.',
        price: '1000',
        forexLeverage: 500,
        commodityLeverage: 200,
        indexLeverage: 200,
        stockLeverage: 50,
        cryptoLeverage: 20,
        forexStopout: 30,
        commodityStopout: 30,
        indexStopout: 30,
        stockStopout: 30,
        cryptoStopout: 30,
      },
    ])
    .returning({ id: pricingPlans.id });
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const u of DEMO_USERS) {
    await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ ...u, passwordHash, isEmailVerified: true, pricingTableId: u.roleId === 3 ? plans[0].id : null })
        .returning({ id: users.id });
      await tx.insert(userProfiles).values({
        userId: user.id,
        phone: '+44 20 7946 0' + String(100 + u.roleId),
        birthDate: '1990-04-12',
        country: 'United Kingdom',
        city: 'London',
        address: `${u.roleId} Demo Street`,
        postalCode: 'EC1A 1BB',
      });
      if (u.roleId !== 3) return;
      const wallets = await tx
        .insert(balances)
        .values([
          { userId: user.id, mode: 'demo', currency: 'USD', balance: '10000' },
          { userId: user.id, mode: 'real', currency: 'USD', balance: '5000' },
        ])
        .returning({ id: balances.id, balance: balances.balance });
      for (const w of wallets)
        await tx
          .insert(ledgerEntries)
          .values({ balanceId: w.id, kind: 'seed', amount: w.balance, balanceAfter: w.balance, note: 'Demo funding' });
      await tx.update(users).set({ activeBalanceId: wallets[0].id }).where(eq(users.id, user.id));
      await tx.insert(kycDocuments).values({ userId: user.id, type: 'passport', status: 'approved' });
    });
  }
  // The demo manager looks after the demo client, so the manager's money screens have something to show.
  const [manager] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'manager@demo.test'));
  const [client] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'client@demo.test'));
  await db.update(userProfiles).set({ managerId: manager.id }).where(eq(userProfiles.userId, client.id));
  await recomputeKycListStatuses(db);
  await seedDemoGateways(db);
}

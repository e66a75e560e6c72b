import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { balances, deposits, users } from '../src/db/schema.ts';
import { DEMO, multipart, signIn, type TestApp } from './helpers.ts';

/**
 * What a card-gateway test does through the platform: an admin saves a gateway, the demo client deposits into their
 * real wallet, and the wallet's balance is read back.
 */
export async function paymentsKit(t: TestApp) {
  const admin = await signIn(t.app, DEMO.admin);
  const client = await signIn(t.app, DEMO.client);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  const wallet = (
    await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, u.id), eq(balances.mode, 'real')))
  )[0].id;
  return {
    admin,
    client,
    wallet,
    balance: async () => (await t.ctx.db.select().from(balances).where(eq(balances.id, wallet)))[0].balance,
    async saveGateway(name: string, fields: Record<string, string>) {
      const form = multipart(fields);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/gateways/${name}`,
        headers: { cookie: admin, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode, res.body).toBe(200);
    },
    /** The client's deposit through a gateway: the answer (payment link) and the deposit's row. */
    async deposit(gateway: string, amount: string) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/deposits',
        headers: { cookie: client },
        payload: { balance_id: wallet, amount, gateway },
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { id: number; paymentLink: string };
      const [row] = await t.ctx.db.select().from(deposits).where(eq(deposits.id, body.id));
      return { ...body, row };
    },
  };
}
export type PaymentsKit = Awaited<ReturnType<typeof paymentsKit>>;

import { randomBytes } from 'node:crypto';
import { incoming, type Handler } from './fake-provider.ts';

/** The secret key the fake accepts as its Bearer token. */
export const FLUTTERWAVE_SECRET = 'FLWSECK_TEST-fake0000000000-X';
const SECRET = FLUTTERWAVE_SECRET;

export interface FlutterwaveTx {
  id: number;
  tx_ref: string;
  amount: number;
  currency: string;
  status: 'successful' | 'failed' | 'pending';
}

/** Flutterwave v3 as documented: Bearer secret key; POST /v3/payments and GET /v3/transactions/{id}/verify. */
export class FakeFlutterwave {
  readonly txs = new Map<number, FlutterwaveTx>();
  private nextId = 4_100_000;

  handler: Handler = (r, reply) => {
    if (r.headers.authorization !== `Bearer ${SECRET}`)
      return reply.json(401, { status: 'error', message: 'Invalid authorization key', data: null });
    if (r.method === 'POST' && r.path === '/v3/payments') {
      const b = r.json as {
        tx_ref?: string;
        amount?: string | number;
        currency?: string;
        redirect_url?: string;
        customer?: { email?: string };
      };
      if (!b?.tx_ref || !b.amount || !b.currency || !b.redirect_url || !b.customer?.email) {
        return reply.json(400, { status: 'error', message: 'Validation error', data: null });
      }
      return reply.json(200, {
        status: 'success',
        message: 'Hosted Link',
        data: { link: `https://checkout.flutterwave.com/v3/hosted/pay/${randomBytes(6).toString('hex')}` },
      });
    }
    const m = /^\/v3\/transactions\/(\d+)\/verify$/.exec(r.path);
    if (r.method === 'GET' && m) {
      const tx = this.txs.get(Number(m[1]));
      if (!tx) return reply.json(400, { status: 'error', message: 'No transaction was found for this id', data: null });
      return reply.json(200, {
        status: 'success',
        message: 'Transaction fetched successfully',
        data: {
          ...tx,
          flw_ref: `FLW-MOCK-${tx.id}`,
          charged_amount: tx.amount,
          app_fee: 35,
          payment_type: 'card',
          created_at: '2025-05-12T10:29:01.000Z',
        },
      });
    }
    reply.json(404, { status: 'error', message: 'Not found', data: null });
  };

  /** The customer pays (or fails to): the transaction Flutterwave will report. */
  pay(tx: Omit<FlutterwaveTx, 'id'>): FlutterwaveTx {
    const t = { ...tx, id: this.nextId++ };
    this.txs.set(t.id, t);
    return t;
  }

  /** The webhook Flutterwave posts for a transaction (its body, as documented). */
  webhook(tx: FlutterwaveTx, override: Partial<FlutterwaveTx> = {}) {
    const body = JSON.stringify({
      event: 'charge.completed',
      data: { ...tx, ...override, flw_ref: `FLW-MOCK-${tx.id}`, customer: { email: 'ada@example.com' } },
    });
    return incoming({ body, headers: { 'content-type': 'application/json', 'verif-hash': 'dashboard-secret-hash' } });
  }
}

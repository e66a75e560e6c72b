import { randomBytes } from 'node:crypto';
import type { Handler } from './fake-provider.ts';

interface FakeOrder {
  id: string;
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  unit: { reference_id: string; custom_id: string; amount: { currency_code: string; value: string } };
  capture?: { id: string; status: string; amount: { currency_code: string; value: string }; custom_id: string };
  declineCapture?: boolean;
}

/** PayPal's REST API as documented: OAuth2 client credentials, then Orders v2 with the Bearer token. */
export class FakePaypal {
  constructor(
    private readonly client: string,
    private readonly secret: string,
  ) {}

  readonly orders = new Map<string, FakeOrder>();
  readonly token = `A21AA${randomBytes(12).toString('hex')}`;
  tokensIssued = 0;

  handler: Handler = (r, reply) => {
    if (r.path === '/v1/oauth2/token') {
      const basic = `Basic ${Buffer.from(`${this.client}:${this.secret}`).toString('base64')}`;
      if (r.headers.authorization !== basic || r.form.get('grant_type') !== 'client_credentials') {
        return reply.json(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      }
      this.tokensIssued += 1;
      return reply.json(200, {
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: this.token,
        token_type: 'Bearer',
        expires_in: 32400,
      });
    }
    if (r.headers.authorization !== `Bearer ${this.token}`)
      return reply.json(401, {
        name: 'AUTHENTICATION_FAILURE',
        message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
      });
    if (r.method === 'POST' && r.path === '/v2/checkout/orders') {
      const body = r.json as { intent?: string; purchase_units?: Array<FakeOrder['unit']> };
      const unit = body?.purchase_units?.[0];
      if (body?.intent !== 'CAPTURE' || !unit?.amount?.value || !/^\d+(\.\d{2})?$/.test(unit.amount.value)) {
        return reply.json(400, {
          name: 'INVALID_REQUEST',
          message: 'Request is not well-formed, syntactically incorrect, or violates schema.',
          details: [{ issue: 'INVALID_PARAMETER_VALUE' }],
        });
      }
      const id = randomBytes(8).toString('hex').toUpperCase();
      this.orders.set(id, {
        id,
        status: 'PAYER_ACTION_REQUIRED',
        unit: { reference_id: unit.reference_id, custom_id: unit.custom_id, amount: unit.amount },
      });
      return reply.json(200, {
        id,
        status: 'PAYER_ACTION_REQUIRED',
        links: [
          { href: `${r.headers.host}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
          { href: `https://www.sandbox.paypal.com/checkoutnow?token=${id}`, rel: 'payer-action', method: 'GET' },
        ],
      });
    }
    const m = /^\/v2\/checkout\/orders\/([A-Z0-9]+)(\/capture)?$/.exec(r.path);
    const order = m ? this.orders.get(m[1]) : undefined;
    if (!order) return reply.json(404, { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] });
    if (r.method === 'POST' && m?.[2]) {
      if (order.status === 'COMPLETED')
        return reply.json(422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] });
      if (order.status !== 'APPROVED')
        return reply.json(422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_NOT_APPROVED' }] });
      order.status = 'COMPLETED';
      order.capture = {
        id: `CAP${randomBytes(6).toString('hex').toUpperCase()}`,
        status: order.declineCapture ? 'DECLINED' : 'COMPLETED',
        amount: order.unit.amount,
        custom_id: order.unit.custom_id,
      };
    }
    return reply.json(r.method === 'POST' ? 201 : 200, this.representation(order));
  };

  representation(o: FakeOrder) {
    return {
      id: o.id,
      status: o.status,
      purchase_units: [{ ...o.unit, payments: o.capture ? { captures: [o.capture] } : undefined }],
    };
  }

  approve(id: string, opts: { decline?: boolean } = {}) {
    const o = this.orders.get(id)!;
    o.status = 'APPROVED';
    o.declineCapture = opts.decline;
  }
}

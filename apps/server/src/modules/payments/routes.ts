import {
  OrderIdParam,
  PaymentKindParam,
  PaymentResultResponse,
  PaypalOrderResponse,
  SandboxCheckoutResponse,
  SandboxDecisionParam,
  TxRefParam,
} from '@platform/domain';
import { z } from 'zod';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { receiveCallback } from './callbacks.ts';
import { paymentReturn, paypalCapture, paypalOrder, sandboxCheckout, sandboxDecide } from './service.ts';

const customer = { access: [3] } as const;
/**
 * The largest provider callback accepted, for every provider route: their notifications (Stripe's events, IPNs,
 * webhooks) are a few kilobytes, and Stripe documents events well under this.
 */
export const CALLBACK_BODY_LIMIT = 64 * 1024;
const ReturnQuery = z.record(z.string().max(64), z.string().max(500));

/** Card and wallet payments: provider callbacks (public, verified by signature), the sandbox page, PayPal capture, returns. */
export const paymentsRoutes: RoutesPlugin = async (app) => {
  const ctx = app.ctx;

  // Callbacks are verified over the exact bytes the provider sent, so this scope keeps bodies raw.
  const rawScope: RoutesPlugin = async (raw) => {
    raw.removeAllContentTypeParsers();
    // Provider notifications are a few kilobytes: anything over the limit is refused with 413 before it is read whole.
    raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: CALLBACK_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    raw.post(
      '/payments/:kind/callback',
      {
        config: { access: 'public', sessionless: true, rateLimit: { max: 600, timeWindow: '1 minute' } },
        bodyLimit: CALLBACK_BODY_LIMIT,
        schema: { tags: ['payments'], params: PaymentKindParam },
      },
      async (req) => {
        const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const type = String(req.headers['content-type'] ?? '');
        let body: unknown = null;
        try {
          body = type.includes('json')
            ? JSON.parse(rawBody.toString('utf8'))
            : Object.fromEntries(new URLSearchParams(rawBody.toString('utf8')));
        } catch {
          body = null;
        }
        const headers = Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
        );
        const outcome = await receiveCallback(ctx, req.params.kind, {
          headers,
          rawBody,
          query: req.query as Record<string, string>,
          body,
        });
        return { received: true, outcome };
      },
    );
  };
  await app.register(rawScope);

  app.get(
    '/payments/sandbox/:tx_ref',
    {
      config: customer,
      schema: { tags: ['payments'], params: TxRefParam, response: { 200: SandboxCheckoutResponse } },
    },
    async (req) => sandboxCheckout(ctx, authOf(req).user.id, req.params.tx_ref),
  );

  app.post(
    '/payments/sandbox/:tx_ref/:decision',
    {
      config: customer,
      schema: { tags: ['payments'], params: SandboxDecisionParam, response: { 200: PaymentResultResponse } },
    },
    async (req) => sandboxDecide(ctx, authOf(req).user.id, req.params.tx_ref, req.params.decision),
  );

  app.post(
    '/payments/paypal/capture/:orderID',
    {
      config: customer,
      schema: { tags: ['payments'], params: OrderIdParam, response: { 200: PaymentResultResponse } },
    },
    async (req) => paypalCapture(ctx, authOf(req).user.id, req.params.orderID),
  );

  app.post(
    '/payments/paypal/:tx_ref',
    { config: customer, schema: { tags: ['payments'], params: TxRefParam, response: { 200: PaypalOrderResponse } } },
    async (req) => paypalOrder(ctx, authOf(req).user.id, req.params.tx_ref),
  );

  app.get(
    '/payments/return/:tx_ref',
    {
      config: customer,
      schema: {
        tags: ['payments'],
        params: TxRefParam,
        querystring: ReturnQuery,
        response: { 200: PaymentResultResponse },
      },
    },
    async (req) => paymentReturn(ctx, authOf(req).user.id, req.params.tx_ref, req.query),
  );
};

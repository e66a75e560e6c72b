import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { CallbackRejected, type GatewayKeys, type IncomingCallback, type PaymentConfirmation } from './types.ts';

/**
 * The built-in sandbox card gateway, shaped like a real provider: its payment page decides, and the decision reaches
 * the platform as a callback signed with the gateway's signing secret (key1) over `${timestamp}.${body}`
 * (header `Sandbox-Signature: t=…,v1=…`), refused when unsigned, tampered or older than five minutes.
 */
export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
const TOLERANCE_MS = 5 * 60 * 1000;

const SandboxEvent = z.object({
  id: z.string().min(8).max(100),
  reference: z.string().min(8).max(64),
  outcome: z.enum(['approved', 'declined']),
  amount: z.string().regex(/^\d+(\.\d+)?$/),
  currency: z.string().min(3).max(10),
});
export type SandboxEvent = z.infer<typeof SandboxEvent>;

const sign = (secret: string, t: number, body: string) =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

/** The callback the sandbox "provider" sends for a decision: body and headers, as a provider would post them. */
export function sandboxCallback(
  keys: GatewayKeys,
  event: Omit<SandboxEvent, 'id'>,
  now = Date.now(),
): { body: string; headers: Record<string, string> } {
  if (!keys.key1) throw new Error('sandbox gateway has no signing secret');
  const body = JSON.stringify({ id: `sbx_${randomBytes(12).toString('hex')}`, ...event });
  const t = Math.floor(now / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      [SANDBOX_SIGNATURE_HEADER]: `t=${t},v1=${sign(keys.key1, t, body)}`,
    },
  };
}

export function verifySandboxCallback(keys: GatewayKeys, cb: IncomingCallback, now = Date.now()): PaymentConfirmation {
  if (!keys.key1) throw new CallbackRejected('sandbox gateway has no signing secret');
  const header = cb.headers[SANDBOX_SIGNATURE_HEADER] ?? '';
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1) throw new CallbackRejected('missing signature');
  if (Math.abs(now - t * 1000) > TOLERANCE_MS) throw new CallbackRejected('stale timestamp');
  const expected = Buffer.from(sign(keys.key1, t, cb.rawBody.toString('utf8')), 'hex');
  const given = Buffer.from(/^[0-9a-f]{64}$/.test(parts.v1) ? parts.v1 : '', 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new CallbackRejected('bad signature');
  let event: SandboxEvent;
  try {
    event = SandboxEvent.parse(JSON.parse(cb.rawBody.toString('utf8')));
  } catch {
    throw new CallbackRejected('malformed body');
  }
  return {
    eventId: event.id,
    reference: event.reference,
    outcome: event.outcome,
    amount: event.amount,
    currency: event.currency,
  };
}

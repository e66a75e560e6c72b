import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  GATEWAY_KINDS,
  GATEWAY_SPECS,
  SECRET_MASK,
  isAutomaticGateway,
  type AdminGatewayDto,
  type GatewayKind,
  type GatewayOptionDto,
  type GatewayUpdateRequest,
} from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { externalPayments, paymentGateways } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { UploadedFile } from '../../lib/multipart.ts';
import { paymentAdapter } from '../../integrations/payments/registry.ts';
import type { GatewayKeys, PaymentAdapter } from '../../integrations/payments/types.ts';
import { fileUrl, prepareFile, recordFile } from '../files/storage.ts';

export type GatewayRow = typeof paymentGateways.$inferSelect;
type Ctx = Pick<AppContext, 'db' | 'config' | 'dbKind' | 'objectStore'>;

/** Whether the sandbox card gateway may run here: on the embedded database by default, never silently on PostgreSQL. */
export const sandboxAllowed = (ctx: Pick<AppContext, 'config' | 'dbKind'>): boolean =>
  ctx.config.PAYMENTS_SANDBOX === 'true' || (ctx.config.PAYMENTS_SANDBOX === 'auto' && ctx.dbKind === 'pglite');

/** The adapter of an automatic gateway kind, pointed at the configured API base URL when one is set. */
export function adapterOf(ctx: Pick<AppContext, 'config'>, kind: GatewayKind): PaymentAdapter | null {
  if (!isAutomaticGateway(kind) || kind === 'sandbox') return null;
  return paymentAdapter(kind, { baseUrl: ctx.config.PAYMENT_API_URLS[kind] });
}

/** One record per kind, inactive; re-runnable. */
export async function seedGateways(db: DbOrTx): Promise<void> {
  for (const kind of GATEWAY_KINDS) await db.insert(paymentGateways).values({ kind }).onConflictDoNothing();
}

/** The embedded demo's gateways: the sandbox card gateway on, a demo bank account and crypto addresses. */
export async function seedDemoGateways(db: DbOrTx): Promise<void> {
  await seedGateways(db);
  await db
    .update(paymentGateways)
    .set({ isActive: true, key1: randomBytes(24).toString('base64url'), fee: '2.5' })
    .where(eq(paymentGateways.kind, 'sandbox'));
  await db
    .update(paymentGateways)
    .set({
      key1: 'Demo Bank plc',
      key2: 'Trading Platform Ltd',
      key3: 'GB33BUKB20201555555555',
      key4: 'BUKBGB22',
      key5: 'United Kingdom',
      isActive: true,
    })
    .where(eq(paymentGateways.kind, 'bank'));
  await db
    .update(paymentGateways)
    .set({ key1: 'bc1qdemo0wallet0address0for0testing0only0xyz', isActive: true, fee: '1' })
    .where(eq(paymentGateways.kind, 'btc'));
  await db
    .update(paymentGateways)
    .set({ key1: 'TDemoUsdtWalletAddressForTestingOnly01', isActive: true, fee: '1' })
    .where(eq(paymentGateways.kind, 'usdt'));
}

export async function loadGateway(db: DbOrTx, kind: GatewayKind): Promise<GatewayRow> {
  const [row] = await db.select().from(paymentGateways).where(eq(paymentGateways.kind, kind)).limit(1);
  return (
    row ?? {
      kind,
      key1: null,
      key2: null,
      key3: null,
      key4: null,
      key5: null,
      fee: '0',
      isActive: false,
      fileId: null,
      updatedAt: new Date(0),
    }
  );
}

export const keysOf = (g: GatewayRow): GatewayKeys => ({
  key1: g.key1,
  key2: g.key2,
  key3: g.key3,
  key4: g.key4,
  key5: g.key5,
});

const KEYS = ['key1', 'key2', 'key3', 'key4', 'key5'] as const;
const isSecret = (kind: GatewayKind, key: (typeof KEYS)[number]) =>
  GATEWAY_SPECS[kind].fields.some((f) => f.key === key && f.secret);
const filled = (v: string | null | undefined) => Boolean(v && v.trim());

/** Whether a gateway has every field its kind needs (the bank card: all five details). */
export const isConfigured = (g: GatewayRow): boolean =>
  GATEWAY_SPECS[g.kind as GatewayKind].fields.every((f) => !f.required || filled(g[f.key]));

/** Whether clients are offered the gateway now. */
export function isOffered(ctx: Ctx, g: GatewayRow): boolean {
  const kind = g.kind as GatewayKind;
  if (!isConfigured(g)) return false;
  if (kind === 'bank') return true; // the bank card has no active switch: its details are the offer
  if (!g.isActive) return false;
  if (kind === 'sandbox') return sandboxAllowed(ctx);
  if (isAutomaticGateway(kind)) return adapterOf(ctx, kind)?.usable ?? false;
  return true;
}

function noteOf(ctx: Ctx, kind: GatewayKind): string {
  if (kind === 'sandbox') {
    return sandboxAllowed(ctx)
      ? 'Built-in test gateway: a payment page with Approve and Decline sends a signed callback. No real money moves.'
      : 'Built-in test gateway: switched off on this installation (PAYMENTS_SANDBOX) because it would credit money nobody paid.';
  }
  if (kind === 'bank')
    return 'Clients transfer to these details and upload a proof; staff approve the deposit when the money arrives.';
  if (kind === 'btc' || kind === 'usdt')
    return 'Clients pay to this address; staff approve the deposit when the coins arrive.';
  return adapterOf(ctx, kind)?.note ?? '';
}

const mask = (v: string | null) => (filled(v) ? SECRET_MASK : '');

export function adminGatewayDto(ctx: Ctx, g: GatewayRow): AdminGatewayDto {
  const kind = g.kind as GatewayKind;
  const spec = GATEWAY_SPECS[kind];
  const value = (key: (typeof KEYS)[number]) => (isSecret(kind, key) ? mask(g[key]) : (g[key] ?? ''));
  return {
    name: spec.name,
    value: kind,
    group: spec.group,
    key1: value('key1'),
    key2: value('key2'),
    key3: value('key3'),
    key4: value('key4'),
    key5: value('key5'),
    fee: g.fee,
    is_active: kind === 'bank' ? isConfigured(g) : g.isActive,
    file: fileUrl(g.fileId),
    note: noteOf(ctx, kind),
  };
}

/** GET /admin/gateways: every card, secrets masked. */
export async function listGateways(ctx: Ctx): Promise<{ data: AdminGatewayDto[] }> {
  const rows = await ctx.db.select().from(paymentGateways);
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  const data: AdminGatewayDto[] = [];
  for (const kind of GATEWAY_KINDS)
    data.push(adminGatewayDto(ctx, byKind.get(kind) ?? (await loadGateway(ctx.db, kind))));
  return { data };
}

/** A stored value without its secret (for the audit log). */
const auditView = (kind: GatewayKind, g: Partial<GatewayRow>) =>
  Object.fromEntries([
    ...KEYS.map((k) => [k, isSecret(kind, k) ? (filled(g[k]) ? '(set)' : '') : (g[k] ?? null)]),
    ['fee', g.fee],
    ['isActive', g.isActive],
    ['fileId', g.fileId ?? null],
  ]);

/** The labels of the secret fields an update would set to a new value (what four-eyes may hold for a second person). */
export async function secretsChangedBy(
  db: DbOrTx,
  kind: GatewayKind,
  input: z.output<typeof GatewayUpdateRequest>,
): Promise<string[]> {
  const before = await loadGateway(db, kind);
  return GATEWAY_SPECS[kind].fields
    .filter((f) => {
      const v = input[f.key];
      return f.secret && v !== undefined && v !== null && v !== SECRET_MASK && v !== '' && v !== before[f.key];
    })
    .map((f) => f.label);
}

/**
 * PUT /admin/gateways/{name}: saves the fields of the kind's card only; a secret sent back masked (or empty) keeps
 * the stored one. Switching on needs every required field, and an adapter that can confirm payments.
 */
export async function updateGateway(
  ctx: Ctx,
  actor: { id: number; ip: string },
  kind: GatewayKind,
  input: z.output<typeof GatewayUpdateRequest>,
  file: UploadedFile | undefined,
  /** Runs first in the update's transaction (a four-eyes approval claims its request there). */
  within?: (tx: DbOrTx) => Promise<void>,
): Promise<string> {
  const spec = GATEWAY_SPECS[kind];
  const upload = spec.hasFile && file ? await prepareFile(ctx, file, 'qr') : null;
  return ctx.db.transaction(async (tx) => {
    if (within) await within(tx);
    await seedGateways(tx);
    const [before] = await tx.select().from(paymentGateways).where(eq(paymentGateways.kind, kind)).for('update');
    const next: Partial<GatewayRow> = {};
    for (const f of spec.fields) {
      const v = input[f.key];
      if (v === undefined || v === null) continue;
      if (f.secret && (v === SECRET_MASK || v === '')) continue;
      if (f.options && !f.options.includes(v))
        throw new AppError('VALIDATION', `${f.label} must be one of ${f.options.join(', ')}`, {
          [f.key]: `Choose ${f.options.join(' or ')}`,
        });
      next[f.key] = v;
    }
    if (spec.hasFee && input.fee !== undefined) next.fee = input.fee;
    if (spec.hasFee && input.isActive !== undefined) next.isActive = input.isActive;
    if (upload) next.fileId = await recordFile(tx, upload, actor.id);
    if (kind === 'sandbox' && !filled(before.key1) && !filled(next.key1))
      next.key1 = randomBytes(24).toString('base64url');
    const merged = { ...before, ...next };
    if (merged.isActive && kind !== 'bank') {
      const missing = spec.fields.find((f) => f.required && !filled(merged[f.key]));
      if (missing)
        throw new AppError('VALIDATION', `${missing.label} is required to switch ${spec.name} on`, {
          [missing.key]: `${missing.label} is required`,
        });
      if (kind === 'sandbox' && !sandboxAllowed(ctx))
        throw new AppError(
          'VALIDATION',
          'The sandbox gateway is switched off on this installation (PAYMENTS_SANDBOX).',
        );
      const adapter = adapterOf(ctx, kind);
      if (isAutomaticGateway(kind) && kind !== 'sandbox' && !adapter?.usable)
        throw new AppError('VALIDATION', adapter?.note ?? `${spec.name} cannot be switched on.`);
    }
    if (Object.keys(next).length) {
      await tx
        .update(paymentGateways)
        .set({ ...next, updatedAt: new Date() })
        .where(eq(paymentGateways.kind, kind));
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: null,
        action: 'gateway.update',
        before: { kind, ...auditView(kind, before) },
        after: { kind, ...auditView(kind, merged) },
        ip: actor.ip,
      });
    }
    return `${spec.name} updated successfully`;
  });
}

/** GET /deposits/gateways: what a client may deposit with now, external payment links last. */
export async function depositOptions(ctx: Ctx): Promise<{ data: GatewayOptionDto[] }> {
  const rows = await ctx.db.select().from(paymentGateways);
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  const data: GatewayOptionDto[] = [];
  for (const kind of GATEWAY_KINDS) {
    const g = byKind.get(kind);
    if (!g || !isOffered(ctx, g)) continue;
    const spec = GATEWAY_SPECS[kind];
    data.push({
      name: spec.name,
      value: kind,
      group: spec.group,
      link: null,
      logo: null,
      custom_label: null,
      custom_value: null,
      fee: spec.hasFee ? g.fee : '0',
    });
  }
  const links = await ctx.db.select().from(externalPayments).orderBy(externalPayments.id);
  for (const e of links) {
    data.push({
      name: e.name,
      value: `external:${e.id}`,
      group: 'external',
      link: e.link,
      logo: fileUrl(e.logoFileId),
      custom_label: e.customLabel,
      custom_value: e.customValue,
      fee: '0',
    });
  }
  return { data };
}

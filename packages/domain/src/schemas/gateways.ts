import { z } from 'zod';
import { optionalString } from './common.ts';
import { percentField } from './money-fields.ts';

// Payment gateways (back-office §3): the kinds, their field sets and the staff and client views of them.

/** Automatic gateways: the card and wallet providers, plus the built-in sandbox card gateway. */
export const AUTOMATIC_GATEWAYS = [
  'sandbox',
  'stripe',
  'paypal',
  'flutterwave',
  'coinpayments',
  'wipays',
  'perfectmoney',
  'globiance',
  'moonpay',
  'prmoney',
] as const;
/** Manual gateways: staff confirm the money arrived. */
export const MANUAL_GATEWAYS = ['bank', 'btc', 'usdt'] as const;
export const GATEWAY_KINDS = [...AUTOMATIC_GATEWAYS, ...MANUAL_GATEWAYS] as const;
export type GatewayKind = (typeof GATEWAY_KINDS)[number];
export type AutomaticGateway = (typeof AUTOMATIC_GATEWAYS)[number];
export const isAutomaticGateway = (k: string): k is AutomaticGateway =>
  (AUTOMATIC_GATEWAYS as readonly string[]).includes(k);
export const isCryptoGateway = (k: string): k is 'btc' | 'usdt' => k === 'btc' || k === 'usdt';

export interface GatewayField {
  key: 'key1' | 'key2' | 'key3' | 'key4' | 'key5';
  label: string;
  /** Secrets are write-only: the browser gets a mask, and a mask sent back keeps the stored value. */
  secret?: boolean;
  /** A fixed list of values (PayPal's mode). */
  options?: readonly string[];
  required?: boolean;
}

export interface GatewaySpec {
  kind: GatewayKind;
  name: string;
  group: 'automatic' | 'manual';
  fields: readonly GatewayField[];
  /** Fee and active switch (the bank card has neither). */
  hasFee: boolean;
  /** A QR code image upload (btc, usdt). */
  hasFile: boolean;
  /** The coin a crypto gateway receives. */
  coin?: string;
}

const secret = (key: GatewayField['key'], label: string): GatewayField => ({
  key,
  label,
  secret: true,
  required: true,
});
const plain = (key: GatewayField['key'], label: string): GatewayField => ({ key, label, required: true });

/** Each gateway kind's card: exactly its field set from back-office §3. */
export const GATEWAY_SPECS: Record<GatewayKind, GatewaySpec> = {
  sandbox: {
    kind: 'sandbox',
    name: 'Sandbox Card',
    group: 'automatic',
    fields: [secret('key1', 'Signing Secret')],
    hasFee: true,
    hasFile: false,
  },
  stripe: {
    kind: 'stripe',
    name: 'Stripe',
    group: 'automatic',
    fields: [secret('key1', 'Secret Key'), secret('key2', 'Webhook Signing Secret')],
    hasFee: true,
    hasFile: false,
  },
  paypal: {
    kind: 'paypal',
    name: 'PayPal',
    group: 'automatic',
    hasFee: true,
    hasFile: false,
    fields: [
      plain('key1', 'Client Key'),
      secret('key2', 'Secret Key'),
      { key: 'key3', label: 'Mode', options: ['sandbox', 'live'], required: true },
    ],
  },
  flutterwave: {
    kind: 'flutterwave',
    name: 'Flutterwave',
    group: 'automatic',
    hasFee: true,
    hasFile: false,
    fields: [plain('key1', 'Public Key'), secret('key2', 'Secret Key'), secret('key3', 'Encryption Key')],
  },
  coinpayments: {
    kind: 'coinpayments',
    name: 'CoinPayments',
    group: 'automatic',
    hasFee: true,
    hasFile: false,
    fields: [plain('key1', 'Public Key'), secret('key2', 'Secret Key'), plain('key3', 'Payment Currency')],
  },
  wipays: {
    kind: 'wipays',
    name: 'WiPays',
    group: 'automatic',
    hasFee: true,
    hasFile: false,
    fields: [plain('key1', 'Public Key'), secret('key2', 'Secret Key')],
  },
  perfectmoney: {
    kind: 'perfectmoney',
    name: 'Perfect Money',
    group: 'automatic',
    hasFee: true,
    hasFile: false,
    // The alternate passphrase is not in the spec's field set, but without it no Perfect Money payment can be verified.
    fields: [plain('key1', 'USD Wallet'), { key: 'key2', label: 'EUR Wallet' }, secret('key3', 'Alternate Passphrase')],
  },
  globiance: {
    kind: 'globiance',
    name: 'Globiance',
    group: 'automatic',
    hasFee: true,
    hasFile: false,
    fields: [plain('key1', 'API Key'), secret('key2', 'Secret Key')],
  },
  moonpay: {
    kind: 'moonpay',
    name: 'MoonPay',
    group: 'automatic',
    hasFee: true,
    hasFile: false,
    fields: [
      plain('key1', 'Public Key'),
      secret('key2', 'Secret Key'),
      secret('key3', 'Webhook Key'),
      plain('key4', 'Wallet Address'),
      plain('key5', 'Crypto Receiving'),
    ],
  },
  prmoney: {
    kind: 'prmoney',
    name: 'PR Money',
    group: 'automatic',
    hasFee: false,
    hasFile: false,
    fields: [plain('key1', 'Client ID'), secret('key2', 'Client Secret')],
  },
  bank: {
    kind: 'bank',
    name: 'Bank',
    group: 'manual',
    hasFee: false,
    hasFile: false,
    fields: [
      plain('key1', 'Bank Name'),
      plain('key2', 'Account Holder Name'),
      plain('key3', 'IBAN / Account Number'),
      plain('key4', 'BIC / Swift Code'),
      plain('key5', 'Country'),
    ],
  },
  btc: {
    kind: 'btc',
    name: 'Bitcoin',
    group: 'manual',
    hasFee: true,
    hasFile: true,
    coin: 'BTC',
    fields: [plain('key1', 'Wallet Address')],
  },
  usdt: {
    kind: 'usdt',
    name: 'USDT',
    group: 'manual',
    hasFee: true,
    hasFile: true,
    coin: 'USDT',
    fields: [plain('key1', 'Wallet Address')],
  },
};

/** What a secret field reads as in the browser; sending it back unchanged keeps the stored secret. */
export const SECRET_MASK = '••••••••';

export const GatewayNameParam = z.object({ name: z.enum(GATEWAY_KINDS, { error: 'Unknown gateway' }) });

const keyValue = optionalString(500);

/** PUT /admin/gateways/{name} (multipart: name, key1..key5, fee, isActive, file). */
export const GatewayUpdateRequest = z.object({
  name: z.enum(GATEWAY_KINDS, { error: 'Unknown gateway' }).optional(),
  key1: keyValue,
  key2: keyValue,
  key3: keyValue,
  key4: keyValue,
  key5: keyValue,
  fee: percentField('Fee is required').optional(),
  isActive: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', 'off'])])
    .transform((v) => v === true || v === 'true' || v === '1' || v === 'on')
    .optional(),
});
export type GatewayUpdateRequest = z.input<typeof GatewayUpdateRequest>;

/** A gateway card as staff see it: secrets masked. */
export const AdminGatewayDto = z.object({
  name: z.string(),
  value: z.enum(GATEWAY_KINDS),
  group: z.enum(['automatic', 'manual']),
  key1: z.string().nullable(),
  key2: z.string().nullable(),
  key3: z.string().nullable(),
  key4: z.string().nullable(),
  key5: z.string().nullable(),
  fee: z.string(),
  is_active: z.boolean(),
  /** URL of the QR image (btc, usdt). */
  file: z.string().nullable(),
  /** How the platform talks to this provider, or why it cannot: shown on the card. */
  note: z.string(),
});
export type AdminGatewayDto = z.infer<typeof AdminGatewayDto>;
export const AdminGatewaysResponse = z.object({ data: z.array(AdminGatewayDto) });
export type AdminGatewaysResponse = z.infer<typeof AdminGatewaysResponse>;

/** A deposit option the client may pick (client-area §3 "Gateway option"). */
export const GatewayOptionDto = z.object({
  name: z.string(),
  /** The gateway kind, or `external:{id}` for an external payment link. */
  value: z.string(),
  group: z.enum(['automatic', 'manual', 'external']),
  link: z.string().nullable(),
  logo: z.string().nullable(),
  custom_value: z.string().nullable(),
  custom_label: z.string().nullable(),
  fee: z.string(),
});
export type GatewayOptionDto = z.infer<typeof GatewayOptionDto>;
export const GatewayOptionsResponse = z.object({ data: z.array(GatewayOptionDto) });
export type GatewayOptionsResponse = z.infer<typeof GatewayOptionsResponse>;

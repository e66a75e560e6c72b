import type { Mock } from 'vitest';
import type {
  AdminGatewayDto,
  AdminKycDto,
  ExternalPaymentDto,
  MoneyRecordDto,
  PricingPlanDto,
} from '@platform/domain';

/** Fixtures of the back office's money screens (component tests). */

export function moneyRecord(over: Partial<MoneyRecordDto> = {}): MoneyRecordDto {
  return {
    id: 11,
    created_at: '2025-03-05T14:07:00',
    amount: '100.00',
    fee: '2.50',
    total: '102.50',
    balance: { id: 3, currency: 'EUR', mode: 'real' },
    balance_after: null,
    gateway: 'stripe',
    status: 'pending',
    description: 'Card payment',
    reference: 'REF-123',
    proof: null,
    decline_reason: null,
    formattedDescription: null,
    user: { id: 42, email: 'carla@demo.test', full_name: 'Carla Client' },
    reviewed_at: null,
    ...over,
  };
}

export const BANK = {
  bankName: 'Demo Bank plc',
  accountName: 'Carla Client',
  accountNumber: 'GB33BUKB2020',
  swiftCode: 'BUKBGB22',
  bankCountry: 'United Kingdom',
};

export const paged = <T>(data: T[]) => ({ data, meta: { total: data.length, per_page: 15, page: 1 } });

export function gateway(over: Partial<AdminGatewayDto> & Pick<AdminGatewayDto, 'value'>): AdminGatewayDto {
  return {
    name: over.value,
    group: 'automatic',
    key1: '',
    key2: '',
    key3: '',
    key4: '',
    key5: '',
    fee: '0.0000',
    is_active: false,
    file: null,
    note: '',
    ...over,
  };
}

export function externalPayment(over: Partial<ExternalPaymentDto> = {}): ExternalPaymentDto {
  return {
    id: 5,
    logo: '/api/files/logo-5',
    name: 'Skrill',
    link: 'https://pay.example.com/skrill',
    custom_label: 'Account',
    custom_value: 'pay@demo.test',
    ...over,
  };
}

export function kycDocument(over: Partial<AdminKycDto> = {}): AdminKycDto {
  return {
    id: 7,
    type: 'passport',
    status: 'pending',
    created_at: '2025-03-05T14:07:00',
    user: { id: 42, full_name: 'Carla Client', email: 'carla@demo.test' },
    front: { url: '/api/files/front-7', mime: 'image/png' },
    back: null,
    address: { url: '/api/files/address-7', mime: 'application/pdf' },
    decline_reason: null,
    ...over,
  };
}

export function pricingPlan(over: Partial<PricingPlanDto> = {}): PricingPlanDto {
  return {
    id: 3,
    name: 'Gold',
    description: 'For active traders',
    price: '250.00',
    currency: 'USD',
    forex_leverage: 500,
    commodity_leverage: 100,
    index_leverage: 100,
    stock_leverage: 20,
    crypto_leverage: null,
    forex_stopout: 20,
    account_type: 'hedging',
    commodity_stopout: null,
    index_stopout: null,
    stock_stopout: null,
    crypto_stopout: null,
    subscribers: 4,
    ...over,
  };
}

/** The multipart body of the n-th call a mocked fetch received (mockFetch records JSON bodies only). */
export function sentForm(fn: Mock, index: number): FormData {
  const init = fn.mock.calls[index]?.[1] as RequestInit | undefined;
  if (!(init?.body instanceof FormData)) throw new Error(`call ${index} has no multipart body`);
  return init.body;
}

/** A small PNG file as the browser hands it to an input. */
export const pngFile = (name = 'qr.png') =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], name, { type: 'image/png' });

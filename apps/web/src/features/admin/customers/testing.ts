import type { Customer360, CustomerDetailResponse, CustomerListItem } from '@platform/domain';
import { realtimeModule } from '../../trading/testing.ts';

/** Socket stand-in for the customer screens' tests: records emits and acknowledges a watch as the server would. */
export const fakeSocket = {
  connected: true,
  emitted: [] as Array<{ event: string; payload: unknown }>,
  watchReply: { ok: true } as { ok: boolean },
  emit(event: string, payload: unknown, ack?: (reply: unknown) => void) {
    fakeSocket.emitted.push({ event, payload });
    if (ack) ack(fakeSocket.watchReply);
  },
  on: () => undefined,
  off: () => undefined,
  once: () => undefined,
};

/** `vi.mock('../../../api/realtime.ts', async () => (await import('./testing.ts')).customerRealtimeModule)` */
export const customerRealtimeModule = { ...realtimeModule, getSocket: () => fakeSocket };

export function customerRow(overrides: Partial<CustomerListItem> = {}): CustomerListItem {
  return {
    id: 7,
    full_name: 'Carl Client',
    email: 'carl@example.test',
    phone: '+44 20 7946 0001',
    birth_date: '1990-05-04',
    country: 'France',
    role_id: 3,
    is_email_verified: true,
    is_active: true,
    ...customer360Row(),
    ...overrides,
  };
}

/** A customer's Customer 360 figures as the lists answer them. */
export function customer360Row(overrides: Partial<Customer360> = {}): Customer360 {
  return {
    wallet_id: 11,
    currency: 'USD',
    balance: '250.00000000',
    equity: '262.50',
    ftd_at: '2026-03-02T10:15:00.000Z',
    ftd_amount: '250.00000000',
    ftd_currency: 'USD',
    kyc_status: 'pending',
    last_login_at: '2026-03-05T08:30:00.000Z',
    online: false,
    ...overrides,
  };
}

export function customerDetail(overrides: Partial<CustomerDetailResponse> = {}): CustomerDetailResponse {
  return {
    id: 7,
    full_name: 'Carl Client',
    email: 'carl@example.test',
    role_id: 3,
    is_email_verified: true,
    is_active: true,
    online: false,
    pricing_table_id: null,
    manager_id: 2,
    balances: [
      { id: 11, mode: 'real', currency: 'USD', balance: '250.00000000', margin: '0' },
      { id: 12, mode: 'demo', currency: 'USD', balance: '10000.00000000', margin: '0' },
    ],
    profile: {
      phone: '+44 20 7946 0001',
      birth_date: '1990-05-04',
      country: 'France',
      city: 'Paris',
      address: '1 Rue',
      postal_code: '75001',
      manager_id: 2,
    },
    read_only: false,
    ...overrides,
  };
}

import { afterEach, describe, expect, it } from 'vitest';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CallAgentsResponse, LeadItem } from '@platform/domain';
import { mockFetch, renderWithProviders, type FetchCall } from '../../../ui/data-table/testing.tsx';
import { currentUser } from '../fixtures.ts';
import { LeadsPage } from './LeadsPage.tsx';
import { leadItem } from './testing.ts';

afterEach(() => {
  notifications.clean();
  notifications.cleanQueue();
});

function leadRow(o: Partial<LeadItem> = {}): LeadItem {
  return leadItem({ email: 'hann****@mail.example.com', phone: '******23', masked: true, ...o });
}

const ON: CallAgentsResponse = {
  configured: true,
  message: null,
  data: [],
  me: { email: 'ada@demo.test', ext: '1001', status: 'available' },
};
const OFF_REASON = 'Click-to-call is off: add the Voiso cluster id and API key in Trade APIs.';

function serve(
  roleId: number,
  rows: LeadItem[],
  agents: CallAgentsResponse | { status: number; body: unknown },
  extra: (c: FetchCall) => unknown = () => undefined,
) {
  return mockFetch((c) => {
    const e = extra(c);
    if (e !== undefined) return e as never;
    if (c.path === '/auth/user') return currentUser(roleId, 5);
    if (c.path === '/admin/crm-config/sales-statuses/api')
      return { data: [], meta: { total: 0, per_page: 999, page: 1 } };
    if (c.path === '/admin/crm/voiso/agents') return agents;
    return { data: rows, meta: { total: rows.length, per_page: 15, page: 1 } };
  });
}

const callButton = async (id: number) =>
  within(await screen.findByTestId(`call-${id}`)).getByRole('button', { name: 'Call' }) as HTMLButtonElement;

describe('click-to-call on the lead screens', () => {
  it("lets a masked agent call a lead by its id and shows the agent's status chip in the spec colour", async () => {
    const { calls } = serve(5, [leadRow()], ON, (c) =>
      c.path === '/admin/crm/voiso/startCall' ? { message: 'Call started successfully', call_id: 'c-1' } : undefined,
    );
    renderWithProviders(<LeadsPage screen={{ kind: 'sales', type: 'all' }} />);
    const chip = await screen.findByTestId('call-agent-status');
    expect(within(chip).getByText('Available')).toBeTruthy();
    expect(within(chip).getByText('Available').closest('.mantine-Badge-root')?.getAttribute('style') ?? '').toContain(
      'green',
    );
    const button = await callButton(41);
    await waitFor(() => expect(button.disabled).toBe(false));
    // A masked number is callable but not copyable.
    const row = screen.getByText('Hannah').closest('tr') as HTMLElement;
    expect(within(row).queryByRole('button', { name: 'Phone' })).toBeNull();
    fireEvent.click(button);
    expect(await screen.findByText('Call started successfully')).toBeTruthy();
    expect(calls.find((c) => c.path === '/admin/crm/voiso/startCall')).toMatchObject({
      method: 'POST',
      body: { leadId: 41 },
    });
  });

  it("shows the server's reason when Voiso refuses, and a danger chip for an unavailable agent", async () => {
    const reason = 'Voiso did not start the call: User not found';
    serve(
      1,
      [leadRow({ masked: false, phone: '+44 7700 900123' })],
      { ...ON, me: { email: 'ada@demo.test', ext: null, status: 'unavailable' } },
      (c) => (c.path === '/admin/crm/voiso/startCall' ? { status: 502, body: { message: reason } } : undefined),
    );
    renderWithProviders(<LeadsPage screen={{ kind: 'sales', type: 'all' }} />);
    const chip = await screen.findByTestId('call-agent-status');
    expect(within(chip).getByText('Unavailable').closest('.mantine-Badge-root')?.getAttribute('style') ?? '').toContain(
      'red',
    );
    const button = await callButton(41);
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    expect(await screen.findByText(reason)).toBeTruthy();
    expect(screen.queryByText('Call started successfully')).toBeNull();
  });

  it('disables the call buttons with the reason while Voiso is not configured, and still copies visible numbers', async () => {
    const { calls } = serve(1, [leadRow({ masked: false, phone: '+44 7700 900123' })], {
      configured: false,
      message: OFF_REASON,
      data: [],
      me: null,
    });
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (s: string) => void copied.push(s) },
    });
    renderWithProviders(<LeadsPage screen={{ kind: 'sales', type: 'all' }} />);
    const button = await callButton(41);
    await waitFor(() => expect(calls.some((c) => c.path === '/admin/crm/voiso/agents')).toBe(true));
    await waitFor(() => expect(button.disabled).toBe(true));
    fireEvent.mouseEnter(screen.getByTestId('call-41'));
    expect(await screen.findByText(OFF_REASON)).toBeTruthy();
    expect(screen.queryByTestId('call-agent-status')).toBeNull();
    fireEvent.click(
      within(screen.getByText('Hannah').closest('tr') as HTMLElement).getByRole('button', { name: 'Phone' }),
    );
    expect(await screen.findByText('Phone number copied to clipboard')).toBeTruthy();
    expect(copied).toEqual(['+44 7700 900123']);
    expect(calls.some((c) => c.path === '/admin/crm/voiso/startCall')).toBe(false);
  });

  it('offers no call control to affiliates', async () => {
    const { calls } = serve(4, [leadRow({ masked: false })], ON);
    renderWithProviders(<LeadsPage screen={{ kind: 'affiliate' }} />);
    await screen.findByText('Hannah');
    expect(screen.queryByTestId('call-41')).toBeNull();
    expect(calls.some((c) => c.path === '/admin/crm/voiso/agents')).toBe(false);
  });
});

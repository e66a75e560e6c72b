import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { currentUserFixture } from '../../../test/fixtures.ts';
import { gatewayOption, mockMoneyApi, realUser, renderMoneyRoutes, stubLocation } from '../testing.tsx';
import { DepositsPage } from './DepositsPage.tsx';
import { depositFigures } from './DepositForm.tsx';

const GATEWAYS = [
  gatewayOption({ name: 'Sandbox Card', value: 'sandbox', group: 'automatic', fee: '2.5' }),
  gatewayOption({ name: 'Bank', value: 'bank', group: 'manual', fee: '0' }),
  gatewayOption({
    name: 'Local Agent',
    value: 'external:4',
    group: 'external',
    link: 'https://pay.example.test/agent',
    custom_label: 'Reference',
    custom_value: 'ACC-77',
  }),
];

const show = (path = '/deposits') => renderMoneyRoutes([{ path: '/deposits', element: <DepositsPage /> }], path);

async function chooseGateway(name: string) {
  fireEvent.click(await screen.findByRole('combobox', { name: /Gateway/ }));
  fireEvent.click(await screen.findByRole('option', { name, hidden: true }));
}

describe('DepositsPage: the form', () => {
  it('charges the gateway percent of the amount, total = amount + fee, to the cent', () => {
    expect(depositFigures('100', '2.5')).toEqual({ fee: '2.50', total: '102.50' });
    expect(depositFigures('10.01', '1.5')).toEqual({ fee: '0.15', total: '10.16' });
    expect(depositFigures('0.30', '0')).toEqual({ fee: '0.00', total: '0.30' });
    expect(depositFigures('abc', '1')).toBeNull();
  });

  it('defaults to the active real wallet and shows the amount only once a gateway is chosen, with fee and total', async () => {
    mockMoneyApi({ gateways: GATEWAYS });
    show();
    const wallet = (await screen.findByRole('combobox', { name: /Wallet/ })) as HTMLInputElement;
    await waitFor(() => expect(wallet.value).toBe('USD Real · Available $4,750.00 · On Hold $250.00'));
    expect(screen.queryByRole('textbox', { name: /Amount/ })).toBeNull();
    await chooseGateway('Sandbox Card');
    fireEvent.change(await screen.findByRole('textbox', { name: /Amount/ }), { target: { value: '1000.10' } });
    const summary = screen.getByTestId('deposit-summary');
    // 2.5 % of 1,000.10 = 25.0025 → 25.00; total 1,025.10
    expect(within(summary).getByText('$25.00')).toBeTruthy();
    expect(within(summary).getByText('$1,025.10')).toBeTruthy();
  });

  it('starts on the first real wallet when the active one is a demo wallet', async () => {
    mockMoneyApi({ user: currentUserFixture(), gateways: GATEWAYS });
    show();
    const wallet = (await screen.findByRole('combobox', { name: /Wallet/ })) as HTMLInputElement;
    await waitFor(() => expect(wallet.value).toContain('USD Real'));
  });

  it('names what is missing with the spec messages and sends nothing', async () => {
    const api = mockMoneyApi({ user: realUser({ balances: [] }), gateways: GATEWAYS });
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Deposit' }));
    expect(await screen.findByText('Wallet is required')).toBeTruthy();
    expect(screen.getByText('Gateway is required')).toBeTruthy();
    await chooseGateway('Bank');
    fireEvent.click(screen.getByRole('button', { name: 'Deposit' }));
    expect(await screen.findByText('Amount is required')).toBeTruthy();
    expect(api.posted('/deposits')).toHaveLength(0);
  });

  it('posts wallet, amount and gateway, then follows an internal payment link', async () => {
    const api = mockMoneyApi({ gateways: GATEWAYS }, (c) =>
      c.method === 'POST' && c.path === '/deposits'
        ? { body: { message: 'Deposit created', paymentLink: '/deposits/bank/31', form: null, id: 31 } }
        : undefined,
    );
    show();
    await chooseGateway('Bank');
    fireEvent.change(await screen.findByRole('textbox', { name: /Amount/ }), { target: { value: '250.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Deposit' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/deposits/bank/31'));
    expect(api.posted('/deposits')[0].body).toEqual({ balance_id: 12, amount: '250.5', gateway: 'bank' });
  });

  it('sends the browser to a provider checkout, or posts the provider form when one comes back', async () => {
    const { assign } = stubLocation();
    mockMoneyApi({ gateways: GATEWAYS }, (c) =>
      c.method === 'POST' && c.path === '/deposits'
        ? { body: { message: 'Deposit created', paymentLink: 'https://checkout.example.test/s/1', form: null, id: 2 } }
        : undefined,
    );
    show();
    await chooseGateway('Sandbox Card');
    fireEvent.change(await screen.findByRole('textbox', { name: /Amount/ }), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Deposit' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example.test/s/1'));
    cleanup();

    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    mockMoneyApi({ gateways: GATEWAYS }, (c) =>
      c.method === 'POST' && c.path === '/deposits'
        ? {
            body: {
              message: 'Deposit created',
              paymentLink: 'https://pm.example.test/sci',
              form: {
                action: 'https://pm.example.test/sci',
                method: 'POST',
                fields: { PAYMENT_ID: 'ref-1', PAYMENT_AMOUNT: '10.25' },
              },
              id: 3,
            },
          }
        : undefined,
    );
    show();
    await chooseGateway('Sandbox Card');
    fireEvent.change(await screen.findByRole('textbox', { name: /Amount/ }), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Deposit' }));
    await waitFor(() => expect(submit).toHaveBeenCalled());
    const form = submit.mock.contexts[0] as HTMLFormElement;
    expect(form.getAttribute('action')).toBe('https://pm.example.test/sci');
    expect(form.method.toUpperCase()).toBe('POST');
    expect((form.querySelector('input[name="PAYMENT_AMOUNT"]') as HTMLInputElement).value).toBe('10.25');
  });

  it("shows the server's message when the deposit is refused", async () => {
    mockMoneyApi({ gateways: GATEWAYS }, (c) =>
      c.method === 'POST' && c.path === '/deposits'
        ? { status: 422, body: { message: 'This gateway is switched off' } }
        : undefined,
    );
    show();
    await chooseGateway('Bank');
    fireEvent.change(await screen.findByRole('textbox', { name: /Amount/ }), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Deposit' }));
    expect(await screen.findByText('This gateway is switched off')).toBeTruthy();
  });

  it('opens an external payment link in a new tab and posts nothing', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const api = mockMoneyApi({ gateways: GATEWAYS });
    show();
    await chooseGateway('Local Agent ↗');
    expect(((await screen.findByRole('textbox', { name: 'Reference' })) as HTMLInputElement).value).toBe('ACC-77');
    fireEvent.click(screen.getByRole('button', { name: 'Open payment page' }));
    expect(open).toHaveBeenCalledWith('https://pay.example.test/agent', '_blank', 'noopener,noreferrer');
    expect(api.posted('/deposits')).toHaveLength(0);
  });
});

describe('DepositsPage: notices and results', () => {
  it('asks for KYC with a link to /kyc and still shows the form', async () => {
    mockMoneyApi({ user: realUser({}, false) });
    show();
    const notice = await screen.findByTestId('kyc-notice');
    expect(notice.textContent).toContain('Please verify KYC to enable deposit');
    expect(within(notice).getByRole('link', { name: 'Click here' }).getAttribute('href')).toBe('/kyc');
    expect(screen.getByRole('button', { name: 'Deposit' })).toBeTruthy();
  });

  it('shows no KYC notice while KYC Required For Deposit is off (the server takes the deposit)', async () => {
    const user = realUser({}, false);
    mockMoneyApi({ user: { ...user, kycRequired: { ...user.kycRequired, deposit: false } } });
    show();
    expect(await screen.findByRole('button', { name: 'Deposit' })).toBeTruthy();
    expect(screen.queryByTestId('kyc-notice')).toBeNull();
  });

  it('titles the result modal from the query: successful with the amount, submitted, failed with the message', async () => {
    const api = mockMoneyApi();
    show('/deposits?status=success&amount=100.00');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Deposit Successful')).toBeTruthy();
    expect(within(dialog).getByText('$100.00')).toBeTruthy();
    // The credited wallet is read again.
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/auth/user').length).toBeGreaterThan(1));
    cleanup();
    mockMoneyApi();
    show('/deposits?status=pending&amount=300');
    expect(await screen.findByText('Deposit Submitted')).toBeTruthy();
    cleanup();
    mockMoneyApi();
    show('/deposits?status=cancelled&amount=5&message=Card%20refused');
    expect(await screen.findByText('Deposit Failed')).toBeTruthy();
    expect(screen.getByText('Card refused')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/deposits'));
  });

  it('lists the deposit history 15 to a page with status chips', async () => {
    const row = {
      id: 1,
      created_at: '2026-11-20T10:00:00Z',
      amount: '100.00',
      fee: '2.50',
      total: '102.50',
      balance: { id: 12, currency: 'USD', mode: 'real' },
      balance_after: '5100.00',
      gateway: 'Sandbox Card',
      status: 'approved',
      description: 'Card deposit',
      reference: null,
      proof: null,
      decline_reason: null,
      formattedDescription: null,
      user: { id: 7, email: 'chris.client@demo.test', full_name: 'Chris Client' },
      reviewed_at: null,
    };
    const api = mockMoneyApi({}, (c) =>
      c.path === '/deposits/history' ? { body: { data: [row], meta: { total: 1, per_page: 15, page: 1 } } } : undefined,
    );
    show();
    fireEvent.click(await screen.findByRole('tab', { name: 'History' }));
    const table = await screen.findByTestId('deposits-history');
    expect(await within(table).findByText('$5,100.00')).toBeTruthy();
    expect(within(table).getByText('$102.50')).toBeTruthy();
    expect(within(table).getByText('Approved')).toBeTruthy();
    expect(within(table).getByText('Card deposit')).toBeTruthy();
    expect(api.calls.find((c) => c.path === '/deposits/history')?.query.get('limit')).toBe('15');
  });
});

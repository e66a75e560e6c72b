import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockMoneyApi, renderMoneyRoutes, stubLocation } from '../testing.tsx';
import { SandboxPaymentPage } from './SandboxPaymentPage.tsx';
import { PaymentReturnPage, PaypalCapturePage, PaypalPaymentPage, approvalLink } from './PaymentReturnPages.tsx';

const REF = 'dep_0123456789abcdef';
const result = (status: 'success' | 'pending' | 'failed', message = '') => ({
  status,
  amount: '102.50',
  message,
  redirect: `/deposits?status=${status}&amount=102.50${message ? `&message=${encodeURIComponent(message)}` : ''}`,
});
const where = () => screen.getByTestId('location').textContent;

describe('SandboxPaymentPage', () => {
  const checkout = { tx_ref: REF, amount: '102.50', currency: 'USD', merchant: 'Test Broker', status: 'pending' };

  it('is labelled as a sandbox, shows merchant and amount, and Approve lands on the deposit result', async () => {
    const api = mockMoneyApi({}, (c) => {
      if (c.method === 'GET' && c.path === `/payments/sandbox/${REF}`) return { body: checkout };
      if (c.method === 'POST' && c.path === `/payments/sandbox/${REF}/approve`) return { body: result('success') };
      return undefined;
    });
    renderMoneyRoutes(
      [{ path: '/payments/sandbox/:txRef', element: <SandboxPaymentPage /> }],
      `/payments/sandbox/${REF}`,
    );
    expect(await screen.findByText('Sandbox payment (no real money)')).toBeTruthy();
    expect(screen.getByText('Test Broker')).toBeTruthy();
    expect(screen.getByTestId('sandbox-amount').textContent).toBe('Deposit $102.50 USD');
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(where()).toBe('/deposits?status=success&amount=102.50'));
    expect(api.posted(`/payments/sandbox/${REF}/decline`)).toHaveLength(0);
  });

  it('Decline lands on the failed result', async () => {
    mockMoneyApi({}, (c) => {
      if (c.method === 'GET' && c.path === `/payments/sandbox/${REF}`) return { body: checkout };
      if (c.method === 'POST' && c.path === `/payments/sandbox/${REF}/decline`)
        return { body: result('failed', 'Payment declined') };
      return undefined;
    });
    renderMoneyRoutes(
      [{ path: '/payments/sandbox/:txRef', element: <SandboxPaymentPage /> }],
      `/payments/sandbox/${REF}`,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(where()).toBe('/deposits?status=failed&amount=102.50&message=Payment%20declined'));
  });

  it('offers no buttons for a payment already decided', async () => {
    mockMoneyApi({}, (c) =>
      c.method === 'GET' && c.path === `/payments/sandbox/${REF}`
        ? { body: { ...checkout, status: 'approved' } }
        : undefined,
    );
    renderMoneyRoutes(
      [{ path: '/payments/sandbox/:txRef', element: <SandboxPaymentPage /> }],
      `/payments/sandbox/${REF}`,
    );
    expect(await screen.findByText('This payment is already approved.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});

describe('provider returns', () => {
  it('asks for the payment state while it is pending, passing the provider query along, then goes to the result', async () => {
    let asked = 0;
    const api = mockMoneyApi({}, (c) => {
      if (c.method === 'GET' && c.path === `/payments/return/${REF}`)
        return { body: ++asked < 2 ? result('pending') : result('success') };
      return undefined;
    });
    renderMoneyRoutes(
      [{ path: '/payments/return/:txRef', element: <PaymentReturnPage /> }],
      `/payments/return/${REF}?token=ORDER1`,
    );
    expect(await screen.findByText('Waiting for the payment provider to confirm your payment...')).toBeTruthy();
    await waitFor(() => expect(where()).toBe('/deposits?status=success&amount=102.50'), { timeout: 4000 });
    expect(asked).toBe(2);
    expect(api.calls.find((c) => c.path === `/payments/return/${REF}`)?.query.get('token')).toBe('ORDER1');
  });

  it('captures an approved PayPal order and goes to the result', async () => {
    const api = mockMoneyApi({}, (c) =>
      c.method === 'POST' && c.path === '/payments/paypal/capture/ORDER1' ? { body: result('success') } : undefined,
    );
    renderMoneyRoutes(
      [{ path: '/payments/paypal/capture/:orderID', element: <PaypalCapturePage /> }],
      '/payments/paypal/capture/ORDER1',
    );
    await waitFor(() => expect(where()).toBe('/deposits?status=success&amount=102.50'));
    expect(api.posted('/payments/paypal/capture/ORDER1')).toHaveLength(1);
  });

  it('shows why a capture failed with a way back', async () => {
    mockMoneyApi({}, (c) =>
      c.method === 'POST' && c.path === '/payments/paypal/capture/ORDER1'
        ? { status: 502, body: { message: 'The payment provider is not answering' } }
        : undefined,
    );
    renderMoneyRoutes(
      [{ path: '/payments/paypal/capture/:orderID', element: <PaypalCapturePage /> }],
      '/payments/paypal/capture/ORDER1',
    );
    expect(await screen.findByText('The payment provider is not answering')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back to deposits' }));
    await waitFor(() => expect(where()).toBe('/deposits'));
  });
});

describe('PaypalPaymentPage', () => {
  it('shows the logo and amount; Pay with PayPal goes to the capture of the order', async () => {
    mockMoneyApi({}, (c) =>
      c.method === 'POST' && c.path === `/payments/paypal/${REF}` ? { body: { id: 'ORDER9' } } : undefined,
    );
    renderMoneyRoutes(
      [{ path: '/payments/paypal/:txRef', element: <PaypalPaymentPage /> }],
      `/payments/paypal/${REF}?amount=50.00&currency=EUR`,
    );
    expect((await screen.findByTestId('paypal-amount')).textContent).toBe('Deposit €50.00 EUR');
    await waitFor(() => expect(document.querySelector('img[src="/logo.svg"]')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Pay with PayPal' }));
    await waitFor(() => expect(where()).toBe('/payments/paypal/capture/ORDER9'));
  });

  it("sends the buyer to PayPal's approval when the order carries one", async () => {
    const { assign } = stubLocation();
    mockMoneyApi({}, (c) =>
      c.method === 'POST' && c.path === `/payments/paypal/${REF}`
        ? {
            body: {
              id: 'ORDER9',
              links: [
                { rel: 'self', href: 'https://api.paypal.test/v2/ORDER9' },
                { rel: 'approve', href: 'https://www.paypal.test/checkoutnow?token=ORDER9' },
              ],
            },
          }
        : undefined,
    );
    renderMoneyRoutes([{ path: '/payments/paypal/:txRef', element: <PaypalPaymentPage /> }], `/payments/paypal/${REF}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay with PayPal' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://www.paypal.test/checkoutnow?token=ORDER9'));
  });

  it('only follows https approval links', () => {
    expect(approvalLink({ id: '1', approveUrl: 'javascript:alert(1)' })).toBeNull();
    expect(approvalLink({ id: '1', approveUrl: 'https://www.paypal.com/checkoutnow?token=1' })).toBe(
      'https://www.paypal.com/checkoutnow?token=1',
    );
    expect(approvalLink({ id: '1' })).toBeNull();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../../ui/data-table/testing.tsx';
import { externalPayment, pngFile, sentForm } from '../fixtures.ts';
import { ExternalPaymentForm } from './ExternalPaymentForm.tsx';

afterEach(cleanup);

const box = (label: RegExp) => screen.getByRole('textbox', { name: label });
const type = (label: RegExp, value: string) => fireEvent.change(box(label), { target: { value } });

describe('ExternalPaymentForm', () => {
  it('requires a logo, a name and a link to create, and sends nothing without them', async () => {
    const { calls } = mockFetch(() => ({ message: 'ok' }));
    renderWithProviders(<ExternalPaymentForm onSaved={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Logo is required')).toBeTruthy();
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Link is required')).toBeTruthy();
    type(/Name/, 'Skrill');
    type(/Link/, 'https://pay.example.com/skrill');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Logo is required')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('posts a new payment as multipart with its logo and toasts', async () => {
    const { calls, fn } = mockFetch(() => ({ message: 'External payment added successfully' }));
    const onSaved = vi.fn();
    renderWithProviders(<ExternalPaymentForm onSaved={onSaved} />);
    fireEvent.change(screen.getByLabelText(/^Logo/), { target: { files: [pngFile('skrill.png')] } });
    expect(await screen.findByText('File Added')).toBeTruthy();
    type(/Name/, ' Skrill ');
    type(/Link/, 'https://pay.example.com/skrill');
    type(/Custom Label/, 'Account');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await screen.findByText('External payment added successfully')).toBeTruthy();
    expect(calls[0].method).toBe('POST');
    expect(calls[0].path).toBe('/admin/externalPayments');
    const body = sentForm(fn, 0);
    expect((body.get('logo') as File).name).toBe('skrill.png');
    expect(body.get('name')).toBe('Skrill');
    expect(body.get('link')).toBe('https://pay.example.com/skrill');
    expect(body.get('customLabel')).toBe('Account');
    expect(body.get('customValue')).toBe('');
  });

  it('edits without a new logo (the stored one stays) and shows the server message on failure', async () => {
    let fail = true;
    const { calls, fn } = mockFetch(() =>
      fail ? { status: 404, body: { message: 'External payment not found' } } : { message: 'ok' },
    );
    const onSaved = vi.fn();
    renderWithProviders(<ExternalPaymentForm payment={externalPayment()} onSaved={onSaved} />);
    expect(box(/Custom Value/)).toHaveProperty('value', 'pay@demo.test');
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('External payment not found')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('External payment updated successfully')).toBeTruthy();
    expect(calls[1].method).toBe('PUT');
    expect(calls[1].path).toBe('/admin/externalPayments/5');
    expect(sentForm(fn, 1).has('logo')).toBe(false);
    expect(onSaved).toHaveBeenCalled();
  });

  it('refuses a link that is not http(s)', async () => {
    mockFetch(() => ({}));
    renderWithProviders(<ExternalPaymentForm payment={externalPayment()} onSaved={vi.fn()} />);
    type(/Link/, 'ftp://pay.example.com');
    fireEvent.blur(box(/Link/));
    expect(await screen.findByText('Link must start with http:// or https://')).toBeTruthy();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { AffiliateApiKeyResponse } from '@platform/domain';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { ApiKeyPage } from './ApiKeyPage.tsx';

afterEach(() => {
  notifications.clean();
  notifications.cleanQueue();
  vi.unstubAllGlobals();
});

const NEW_KEY = 'ak_Zx81QmA0bcdefghijklmnopqrstuvwxyz0123456';

function serve(
  current: AffiliateApiKeyResponse,
  post: () => unknown = () => ({
    status: 201,
    body: {
      message: 'API key generated successfully',
      key: NEW_KEY,
      prefix: NEW_KEY.slice(0, 10),
      created_at: '2026-11-23T08:00:00Z',
    },
  }),
) {
  return mockFetch((c) => {
    if (c.method === 'GET' && c.path === '/affiliate/api') return current;
    if (c.method === 'POST' && c.path === '/affiliate/api') return post();
    return { status: 404, body: { message: 'Not found.' } };
  });
}

const keyField = () => screen.getByLabelText('API Key') as HTMLInputElement;

describe('ApiKeyPage', () => {
  it('generates the first key, shows it once with a copy button, and links the documentation', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { calls } = serve({ key: null, prefix: null, created_at: null });
    renderWithProviders(<ApiKeyPage />);
    expect(await screen.findByPlaceholderText('No key yet: generate one')).toBeTruthy();
    expect(keyField().readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Documentation' }).getAttribute('href')).toBe(
      '/api/affiliate/api/documentation',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('API key generated successfully')).toBeTruthy();
    await waitFor(() => expect(keyField().value).toBe(NEW_KEY));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/affiliate/api']);
    expect(screen.getByText('Copy your key now')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(NEW_KEY);
  });

  it('shows an existing key by its first characters only; a new one needs a confirmation', async () => {
    const { calls } = serve({ key: null, prefix: 'ak_Old1234', created_at: '2026-11-01T09:30:00Z' });
    renderWithProviders(<ApiKeyPage />);
    await waitFor(() => expect(keyField().value).toBe(`ak_Old1234${'•'.repeat(12)}`));
    expect(screen.getByText(/The whole key was shown once/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('Generate a new key? The current key stops working at once.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    await waitFor(() => expect(keyField().value).toBe(NEW_KEY));
    expect(await screen.findByText('API key generated successfully')).toBeTruthy();
  });

  it("shows the server's message when generation fails, and keeps the current key", async () => {
    serve({ key: null, prefix: null, created_at: null }, () => ({
      status: 403,
      body: { message: 'You are not allowed to do this.' },
    }));
    renderWithProviders(<ApiKeyPage />);
    await screen.findByPlaceholderText('No key yet: generate one');
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('You are not allowed to do this.')).toBeTruthy();
    expect(keyField().value).toBe('');
  });
});

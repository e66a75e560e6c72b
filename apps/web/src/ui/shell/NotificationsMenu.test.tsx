import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { NotificationDto } from '@platform/domain';
import { mockApi, renderScreen } from '../../test/render.tsx';

// Captures the realtime subscription so the test can push an event without a socket.
const handlers = new Map<string, (payload: unknown) => void>();
vi.mock('../../api/realtime.ts', () => ({
  useRealtimeEvent: (event: string, handler: (payload: unknown) => void) => {
    handlers.set(event, handler);
  },
}));
const play = vi.fn();
vi.mock('./notificationSound.ts', () => ({ playNotificationSound: () => play() }));

const { NotificationsMenu } = await import('./NotificationsMenu.tsx');

describe('NotificationsMenu', () => {
  it('lists notifications and reacts to the live user event', async () => {
    let list: NotificationDto[] = [
      {
        id: 1,
        title: 'Deposit approved',
        description: 'Your deposit of $100.00 was approved.',
        url: null,
        created_at: '2025-01-02T10:00:00Z',
        read: false,
      },
    ];
    const fetchMock = mockApi((_m, path) =>
      path === '/notifications' ? { body: { data: list, unread: list.length } } : undefined,
    );
    renderScreen(<NotificationsMenu userId={7} />);

    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('Deposit approved')).toBeTruthy();
    expect(screen.getByText('Your deposit of $100.00 was approved.')).toBeTruthy();

    list = [
      {
        id: 2,
        title: 'KYC approved',
        description: 'You can trade now.',
        url: '/kyc',
        created_at: '2025-01-03T10:00:00Z',
        read: false,
      },
      ...list,
    ];
    const calls = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/notifications')).length;
    const before = calls();
    act(() => handlers.get('user:7')?.({ title: 'KYC approved', description: 'You can trade now.', url: '/kyc' }));
    expect(play).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(calls()).toBeGreaterThan(before));
    // The toast and the refreshed list both show the new item.
    await waitFor(() => expect(screen.getAllByText('KYC approved').length).toBeGreaterThanOrEqual(2));
  });
});

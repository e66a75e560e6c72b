import { notifications, type NotificationData } from '@mantine/notifications';

type NotificationPosition = NotificationData['position'];

/**
 * Toasts of the spec (§8): bottom-right unless a position is given. Callers pass finished text:
 * their own texts through t(), server messages as they come.
 */
export function toastSuccess(message: string, position?: NotificationPosition): void {
  notifications.show({ color: 'teal', message, position });
}

export function toastError(message: string, position?: NotificationPosition): void {
  notifications.show({ color: 'red', message, position });
}

export function toastInfo(title: string, message: string | null | undefined): void {
  notifications.show({ color: 'blue', title, message: message ?? '' });
}

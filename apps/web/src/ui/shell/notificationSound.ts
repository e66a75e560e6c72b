/** The shipped alert sound (public/notification.wav), played on a live notification (spec §4). */
export const NOTIFICATION_SOUND_URL = '/notification.wav';

export function playNotificationSound(): void {
  try {
    const audio = new Audio(NOTIFICATION_SOUND_URL);
    audio.volume = 0.6;
    // Browsers refuse to play before the user has interacted with the page; that is fine to ignore.
    void audio.play().catch(() => undefined);
  } catch {
    // No audio support (tests, locked-down browsers): the toast alone is enough.
  }
}

export { Logo } from './Logo.tsx';
export { LoadingScreen } from './LoadingScreen.tsx';
export { LanguageMenu } from './LanguageMenu.tsx';
export { NotificationsMenu } from './NotificationsMenu.tsx';
export { ProfileMenu, type ProfileMenuItem } from './ProfileMenu.tsx';
export { RoleShortcuts, BACK_TO_ADMIN_KEY, RET_AGENT_KEY } from './RoleShortcuts.tsx';
export { playNotificationSound } from './notificationSound.ts';

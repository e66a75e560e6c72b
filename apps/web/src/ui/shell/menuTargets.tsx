import { ActionIcon, Avatar, Button, Indicator, UnstyledButton } from '@mantine/core';
import { IconBell, IconLanguage } from '@tabler/icons-react';
import type { TargetHandlers } from './MenuOnUse.tsx';

/** The language button: the current language's code. */
export function languageTarget(code: string, label: string, on: TargetHandlers = {}) {
  return (
    <Button
      variant="subtle"
      color="gray"
      size="compact-sm"
      leftSection={<IconLanguage size={18} />}
      aria-label={label}
      {...on}
    >
      {code.toUpperCase()}
    </Button>
  );
}

/** The avatar button of the profile menu. */
export function profileTarget(fullName: string, label: string, on: TargetHandlers = {}) {
  return (
    <UnstyledButton aria-label={label} {...on}>
      <Avatar name={fullName} color="initials" radius="xl" size={34} />
    </UnstyledButton>
  );
}

/** The bell, with the count of unread notifications. */
export function bellTarget(unread: number, label: string, on: TargetHandlers = {}) {
  return (
    <Indicator label={unread > 99 ? '99+' : unread} size={16} disabled={unread === 0} color="red" offset={4}>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} {...on}>
        <IconBell size={20} />
      </ActionIcon>
    </Indicator>
  );
}

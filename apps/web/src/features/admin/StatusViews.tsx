import type { ReactNode } from 'react';
import { Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock, IconMapPinOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

function Notice({ icon, title, text }: { icon: ReactNode; title?: string; text: string }) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Center mih={220}>
        <Stack align="center" gap="sm" maw={420}>
          <ThemeIcon size={56} radius="xl" variant="light" color="gray">
            {icon}
          </ThemeIcon>
          {title && (
            <Title order={3} ta="center">
              {title}
            </Title>
          )}
          <Text c="dimmed" ta="center">
            {text}
          </Text>
        </Stack>
      </Center>
    </Paper>
  );
}

/** Shown when the signed-in staff role's menu does not include the screen. */
export function AccessDenied() {
  const { t } = useTranslation();
  return <Notice icon={<IconLock size={28} />} text={t('You do not have access to this page.')} />;
}

/** Shown for a back-office path that matches no screen. */
export function PageNotFound() {
  const { t } = useTranslation();
  return <Notice icon={<IconMapPinOff size={28} />} text={t('This page does not exist.')} />;
}

import type { ReactNode } from 'react';
import { Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock, IconMapPinOff, IconTools } from '@tabler/icons-react';
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

/** Neutral page for back-office screens that later releases fill in. */
export function SectionPlaceholder({ title }: { title: string }) {
  const { t } = useTranslation();
  return <Notice icon={<IconTools size={28} />} title={title} text={t('This section is not part of this release yet.')} />;
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

import { Stack, Text, ThemeIcon } from '@mantine/core';
import { IconHourglassEmpty } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../../ui/PageCard.tsx';

export interface PlaceholderPageProps {
  /** English title, translated here. */
  title: string;
}

/** Neutral page for account sections that a later release fills in. */
export function PlaceholderPage({ title }: PlaceholderPageProps) {
  const { t } = useTranslation();
  return (
    <PageCard title={t(title)}>
      <Stack align="center" py="xl" gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light" color="gray">
          <IconHourglassEmpty size={28} />
        </ThemeIcon>
        <Text c="dimmed" ta="center">
          {t('This section is not part of this release yet.')}
        </Text>
      </Stack>
    </PageCard>
  );
}

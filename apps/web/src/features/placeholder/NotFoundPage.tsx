import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../ui/shell/Logo.tsx';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="md">
        <Logo height={48} />
        <Title order={2}>{t('Page not found')}</Title>
        <Text c="dimmed" ta="center">
          {t('The page you are looking for does not exist or has moved.')}
        </Text>
        <Button component={Link} to="/dashboard">
          {t('Go to dashboard')}
        </Button>
      </Stack>
    </Center>
  );
}

import { Button, Center, Stack, Text } from '@mantine/core';
import { Navigate, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../api/hooks.ts';
import { LoadingScreen } from '../../ui/shell/LoadingScreen.tsx';

/** Gate of every signed-in page: loading screen while the user loads, sign-in page when there is none. */
export function RequireUser() {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch, isFetching } = useCurrentUser();
  if (isPending) return <LoadingScreen />;
  if (isError)
    return (
      <Center h="100dvh">
        <Stack align="center">
          <Text>{t('We could not load your account. Please check your connection.')}</Text>
          <Button onClick={() => void refetch()} loading={isFetching}>
            {t('Try again')}
          </Button>
        </Stack>
      </Center>
    );
  if (!data) return <Navigate to="/" replace />;
  return <Outlet />;
}

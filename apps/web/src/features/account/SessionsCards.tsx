import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime, type SessionDto, type SignInDto, type SignInResult } from '@platform/domain';
import { apiDelete, apiGet, errorMessage } from '../../api/client.ts';
import { PageCard } from '../../ui/PageCard.tsx';
import { ResponsiveList, type ListColumn } from '../../ui/responsive-list/index.ts';
import { toastError, toastSuccess } from '../../ui/toast.ts';

const RESULT_LABELS: Record<SignInResult, { label: string; color: string }> = {
  success: { label: 'Signed in', color: 'teal' },
  wrong_password: { label: 'Wrong password', color: 'red' },
  wrong_code: { label: 'Wrong code', color: 'red' },
  refused: { label: 'Refused', color: 'orange' },
  locked: { label: 'Locked', color: 'orange' },
};

/**
 * The active sessions and the sign-in history of an account: the user's own (base `/security`, with sign-out per
 * session and everywhere else) or, for staff, a customer's (base `/admin/customers/{id}`, read only).
 */
export function SessionsCards({ base, own }: { base: string; own: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const key = ['security', base] as const;
  const sessions = useQuery({
    queryKey: [...key, 'sessions'],
    queryFn: () => apiGet<{ data: SessionDto[] }>(`${base}/sessions`),
  });
  const signIns = useQuery({
    queryKey: [...key, 'sign-ins'],
    queryFn: () => apiGet<{ data: SignInDto[] }>(`${base}/sign-ins`),
  });
  const end = useMutation({
    mutationFn: (id: number | 'others') =>
      apiDelete<{ message: string }>(id === 'others' ? '/security/sessions' : `/security/sessions/${id}`),
    onSuccess: (res) => {
      toastSuccess(t(res.message));
      void client.invalidateQueries({ queryKey: [...key, 'sessions'] });
    },
    onError: (err) => toastError(errorMessage(err, t('Something went wrong'))),
  });

  const sessionColumns: ListColumn<SessionDto>[] = [
    {
      key: 'device',
      label: t('Device'),
      always: true,
      render: (s) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{s.device}</Text>
          {s.current && <Badge size="xs">{t('This device')}</Badge>}
          {s.staff && (
            <Badge size="xs" color="gray">
              {t('Staff')}
            </Badge>
          )}
        </Group>
      ),
    },
    { key: 'ip', label: t('IP'), render: (s) => s.ip ?? '-' },
    { key: 'started', label: t('Started'), render: (s) => formatDateTime(s.started_at) },
    { key: 'seen', label: t('Last seen'), render: (s) => formatDateTime(s.last_seen_at) },
    ...(own
      ? [
          {
            key: 'action',
            label: '',
            render: (s: SessionDto) =>
              s.current ? null : (
                <Button size="compact-xs" variant="light" color="red" onClick={() => end.mutate(s.id)}>
                  {t('Sign out')}
                </Button>
              ),
          },
        ]
      : []),
  ];
  const signInColumns: ListColumn<SignInDto>[] = [
    { key: 'at', label: t('Time'), always: true, render: (r) => formatDateTime(r.at) },
    {
      key: 'result',
      label: t('Result'),
      render: (r) => (
        <Badge size="sm" variant="light" color={RESULT_LABELS[r.result].color}>
          {t(RESULT_LABELS[r.result].label)}
        </Badge>
      ),
    },
    { key: 'ip', label: t('IP'), render: (r) => r.ip ?? '-' },
    { key: 'device', label: t('Device'), render: (r) => r.device },
  ];
  const others = (sessions.data?.data ?? []).filter((s) => !s.current).length;

  return (
    <>
      <PageCard
        title={t('Active sessions')}
        description={own ? t('Where your account is signed in now.') : undefined}
        actions={
          own && others > 0 ? (
            <Button variant="light" color="red" size="xs" onClick={() => end.mutate('others')} loading={end.isPending}>
              {t('Sign out everywhere else')}
            </Button>
          ) : undefined
        }
      >
        <ResponsiveList
          rows={sessions.data?.data ?? []}
          columns={sessionColumns}
          rowKey={(s) => s.id}
          rowTestId={(s) => `session-${s.id}`}
          emptyText={sessions.isLoading ? t('Loading...') : t('No sessions')}
          card={(s) => (
            <Stack gap={4}>
              {sessionColumns[0].render(s)}
              <Text size="xs" c="dimmed">
                {s.ip ?? '-'} · {formatDateTime(s.last_seen_at)}
              </Text>
              {own && !s.current && sessionColumns[4]?.render(s)}
            </Stack>
          )}
        />
      </PageCard>
      <PageCard title={t('Sign-in history')} description={t('The last 30 sign-in attempts.')}>
        <ResponsiveList
          rows={signIns.data?.data ?? []}
          columns={signInColumns}
          rowKey={(r) => r.id}
          rowTestId={(r) => `sign-in-${r.id}`}
          emptyText={signIns.isLoading ? t('Loading...') : t('No sign-ins yet')}
          card={(r) => (
            <Stack gap={4}>
              <Group justify="space-between">
                <Text size="sm">{formatDateTime(r.at)}</Text>
                {signInColumns[1].render(r)}
              </Group>
              <Text size="xs" c="dimmed">
                {r.ip ?? '-'} · {r.device}
              </Text>
            </Stack>
          )}
        />
      </PageCard>
    </>
  );
}

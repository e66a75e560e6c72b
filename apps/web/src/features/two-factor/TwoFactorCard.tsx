import { useState } from 'react';
import { Alert, Badge, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  GENERIC_ERROR,
  type RecoveryCodesResponse,
  type TwoFactorSetupResponse,
  type TwoFactorStatusResponse,
} from '@platform/domain';
import { apiGet, apiPost, errorMessage } from '../../api/client.ts';
import { PageCard } from '../../ui/PageCard.tsx';
import { toastError, toastSuccess } from '../../ui/toast.ts';
import { CodeInput, RecoveryCodesPanel, TwoFactorSetupInfo } from './TwoFactorParts.tsx';
import { TwoFactorPolicyForm } from './TwoFactorPolicyForm.tsx';

export const twoFactorKey = ['two-factor', 'status'] as const;
type Panel = 'none' | 'setup' | 'regenerate' | 'disable';

/**
 * "Two-factor sign-in" on the Security page, for every user's own account (staff and customers): status, set-up (QR + code, then the recovery codes once),
 * new recovery codes, turning it off (password + code; not offered when the role requires it). Admins also choose
 * here which roles must use it.
 */
export function TwoFactorCard({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: twoFactorKey,
    queryFn: () => apiGet<TwoFactorStatusResponse>('/security/two-factor'),
  });
  const [panel, setPanel] = useState<Panel>('none');
  const [setup, setSetup] = useState<TwoFactorSetupResponse | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');

  const close = () => {
    setPanel('none');
    setSetup(null);
    setCode('');
    setPassword('');
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: twoFactorKey });
  const onError = (err: unknown) => {
    setCode('');
    toastError(errorMessage(err, t(GENERIC_ERROR)));
  };

  const start = useMutation({
    mutationFn: () => apiPost<TwoFactorSetupResponse>('/security/two-factor/setup'),
    onSuccess: (res) => {
      setSetup(res);
      setPanel('setup');
    },
    onError,
  });
  const withCodes = (path: string) => ({
    mutationFn: () => apiPost<RecoveryCodesResponse>(path, { code }),
    onSuccess: (res: RecoveryCodesResponse) => {
      toastSuccess(t(res.message));
      close();
      setCodes(res.recoveryCodes);
      void refresh();
    },
    onError,
  });
  const enable = useMutation(withCodes('/security/two-factor/enable'));
  const regenerate = useMutation(withCodes('/security/two-factor/recovery-codes'));
  const disable = useMutation({
    mutationFn: () => apiPost<{ message: string }>('/security/two-factor/disable', { password, code }),
    onSuccess: (res) => {
      toastSuccess(t(res.message));
      close();
      void refresh();
    },
    onError,
  });

  const s = status.data;
  const submit = (m: { mutate: () => void }) => (e: React.FormEvent) => {
    e.preventDefault();
    if (code.length === 6) m.mutate();
  };

  let body: React.ReactNode;
  if (codes) body = <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} doneLabel={t('Done')} />;
  else if (!s) body = status.isError ? <Text c="red">{errorMessage(status.error, t(GENERIC_ERROR))}</Text> : null;
  else if (panel === 'setup' && setup)
    body = (
      <form onSubmit={submit(enable)} noValidate>
        <Stack gap="md">
          <TwoFactorSetupInfo setup={setup} />
          <CodeInput value={code} onChange={setCode} label={t('Code from the app')} autoFocus />
          <Group>
            <Button type="submit" disabled={code.length !== 6} loading={enable.isPending}>
              {t('Turn on')}
            </Button>
            <Button variant="default" onClick={close}>
              {t('Cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  else if (panel === 'regenerate')
    body = (
      <form onSubmit={submit(regenerate)} noValidate>
        <Stack gap="md">
          <Text size="sm">{t('New codes replace all your current recovery codes.')}</Text>
          <CodeInput value={code} onChange={setCode} autoFocus />
          <Group>
            <Button type="submit" disabled={code.length !== 6} loading={regenerate.isPending}>
              {t('Create new codes')}
            </Button>
            <Button variant="default" onClick={close}>
              {t('Cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  else if (panel === 'disable')
    body = (
      <form onSubmit={submit(disable)} noValidate>
        <Stack gap="md">
          <PasswordInput
            label={t('Current Password')}
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <CodeInput value={code} onChange={setCode} />
          <Group>
            <Button
              color="red"
              type="submit"
              disabled={code.length !== 6 || password === ''}
              loading={disable.isPending}
            >
              {t('Turn off')}
            </Button>
            <Button variant="default" onClick={close}>
              {t('Cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  else
    body = (
      <Stack gap="sm">
        <Group gap="xs">
          <Text fw={500}>{t('Status')}:</Text>
          <Badge color={s.enabled ? 'green' : 'gray'} data-testid="two-factor-status">
            {s.enabled ? t('On') : t('Off')}
          </Badge>
        </Group>
        {s.enabled && <Text size="sm">{t('{{count}} recovery codes left', { count: s.recoveryCodesLeft })}</Text>}
        {s.required && (
          <Alert color="blue" variant="light">
            {s.enabled
              ? t('Your role requires two-factor sign-in, so it cannot be turned off.')
              : t(
                  'Your role requires two-factor sign-in. Set it up now, or you will be asked to at your next sign-in.',
                )}
          </Alert>
        )}
        <Group>
          {s.enabled ? (
            <>
              <Button variant="light" onClick={() => setPanel('regenerate')}>
                {t('New recovery codes')}
              </Button>
              {!s.required && (
                <Button variant="light" color="red" onClick={() => setPanel('disable')}>
                  {t('Turn off')}
                </Button>
              )}
            </>
          ) : (
            <Button onClick={() => start.mutate()} loading={start.isPending}>
              {t('Set up')}
            </Button>
          )}
        </Group>
      </Stack>
    );

  return (
    <PageCard
      title={t('Two-factor sign-in')}
      description={t('After your password, sign-in asks for a code from an authenticator app on your phone.')}
    >
      <Stack gap="xl" maw={480}>
        {body}
        {isAdmin && <TwoFactorPolicyForm />}
      </Stack>
    </PageCard>
  );
}

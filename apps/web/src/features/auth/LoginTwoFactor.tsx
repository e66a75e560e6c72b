import { useState } from 'react';
import { Anchor, Button, Center, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, type TwoFactorSetupResponse } from '@platform/domain';
import { apiPost, errorMessage } from '../../api/client.ts';
import { toastError } from '../../ui/toast.ts';
import { CodeInput, RecoveryCodesPanel, TwoFactorSetupInfo } from '../two-factor/TwoFactorParts.tsx';
import { AuthCard } from './AuthCard.tsx';

export interface TwoFactorStep {
  mode: 'code' | 'enrol';
  challenge: string;
  remember: boolean;
}

interface TwoFactorLoginResult {
  message: string;
  user: { id: number; role_id: number };
  recoveryCodes?: string[];
}

/**
 * The second sign-in step (docs/decisions.md "Staff two-factor sign-in"): a code from the authenticator app or a
 * recovery code; or, when the role requires two-factor sign-in and it is not set up yet, the set-up first and then
 * the recovery codes, shown once. `onSignedIn` runs once the session is open and, after enrolling, the codes saved.
 */
export function LoginTwoFactor({
  step,
  onSignedIn,
  onRestart,
}: {
  step: TwoFactorStep;
  onSignedIn: () => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  const [recoveryCode, setRecoveryCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const setup = useQuery({
    queryKey: ['two-factor', 'login-setup', step.challenge],
    queryFn: () => apiPost<TwoFactorSetupResponse>('/auth/login/two-factor/setup', { challenge: step.challenge }),
    enabled: step.mode === 'enrol',
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const verify = useMutation({
    mutationFn: () =>
      apiPost<TwoFactorLoginResult>('/auth/login/two-factor', {
        challenge: step.challenge,
        remember: step.remember,
        ...(useRecovery ? { recoveryCode } : { code }),
      }),
    onSuccess: (res) => {
      if (res.recoveryCodes) setCodes(res.recoveryCodes);
      else onSignedIn();
    },
    onError: (err) => {
      setCode('');
      toastError(errorMessage(err, t(GENERIC_ERROR)), 'bottom-center');
    },
  });

  if (codes)
    return (
      <AuthCard title={t('Two-factor sign-in is on')}>
        <RecoveryCodesPanel codes={codes} onDone={onSignedIn} />
      </AuthCard>
    );

  const enrol = step.mode === 'enrol';
  const ready = useRecovery ? recoveryCode.trim().length >= 10 : code.length === 6;
  return (
    <AuthCard
      title={enrol ? t('Set up two-factor sign-in') : t('Two-factor sign-in')}
      subtitle={
        enrol
          ? t('Your role requires two-factor sign-in. Set it up with an authenticator app to continue.')
          : useRecovery
            ? t('Enter one of your recovery codes.')
            : t('Enter the 6-digit code from your authenticator app.')
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) verify.mutate();
        }}
        noValidate
      >
        <Stack gap="md">
          {enrol &&
            (setup.data ? (
              <TwoFactorSetupInfo setup={setup.data} />
            ) : setup.isError ? (
              <Text c="red" size="sm">
                {errorMessage(setup.error, t(GENERIC_ERROR))}
              </Text>
            ) : (
              <Center>
                <Loader />
              </Center>
            ))}
          {useRecovery ? (
            <TextInput
              label={t('Recovery code')}
              placeholder="xxxxx-xxxxx"
              autoComplete="off"
              required
              autoFocus
              value={recoveryCode}
              onChange={(e) => setRecoveryCode(e.currentTarget.value.slice(0, 40))}
              data-testid="two-factor-recovery-code"
            />
          ) : (
            <CodeInput value={code} onChange={setCode} autoFocus={!enrol} />
          )}
          <Button
            type="submit"
            fullWidth
            size="md"
            disabled={!ready || (enrol && !setup.data)}
            loading={verify.isPending}
          >
            {enrol ? t('Turn on and sign in') : t('Verify')}
          </Button>
          {!enrol && (
            <Anchor component="button" type="button" size="sm" ta="center" onClick={() => setUseRecovery((u) => !u)}>
              {useRecovery ? t('Use the authenticator app') : t('Use a recovery code')}
            </Anchor>
          )}
          <Anchor component="button" type="button" size="sm" ta="center" c="dimmed" onClick={onRestart}>
            {t('Back to sign in')}
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}

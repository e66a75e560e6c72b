import { useEffect, useRef, useState } from 'react';
import { Anchor, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CurrentUserResponse, TwoFactorStatusResponse } from '@platform/domain';
import { ApiError, apiGet, apiPost, setReauthPrompt } from '../../api/client.ts';
import { queryKeys } from '../../api/hooks.ts';
import { CodeInput } from '../two-factor/TwoFactorParts.tsx';

type Method = 'password' | 'code';
/** TwoFactorCard's key of the same status (not imported from it: this dialog is on every screen, the card on one). */
const twoFactorKey = ['two-factor', 'status'] as const;

/**
 * The confirmation a sensitive call asks for when the session signed in (or last confirmed) more than 15 minutes ago:
 * a withdrawal request, a password change, a change of two-factor sign-in. The call waits while the person confirms
 * with their password or, when they use two-factor sign-in, a code from their app; then it goes again. Mounted once
 * beside the app's screens.
 */
export function ReauthDialog() {
  const { t } = useTranslation();
  const [message, setMessage] = useState<string | null>(null);
  const [method, setMethod] = useState<Method>('password');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const settle = useRef<((ok: boolean) => void) | null>(null);
  // Whether the person may confirm with a code: asked only once the dialog opens.
  const twoFactor = useQuery({
    queryKey: twoFactorKey,
    queryFn: () => apiGet<TwoFactorStatusResponse>('/security/two-factor'),
    enabled: message !== null,
    retry: false,
  });
  // During "Login as" the staff member confirms as themself: the customer's second factor is not theirs to use.
  const impersonating = useQueryClient().getQueryData<CurrentUserResponse>(queryKeys.currentUser)?.impersonating;
  const hasCode = twoFactor.data?.enabled === true && !impersonating;

  useEffect(() => {
    setReauthPrompt(
      (text) =>
        new Promise<boolean>((resolve) => {
          settle.current?.(false);
          settle.current = resolve;
          setPassword('');
          setCode('');
          setError(null);
          setMethod('password');
          setMessage(text);
        }),
    );
    return () => setReauthPrompt(null);
  }, []);

  const close = (ok: boolean) => {
    settle.current?.(ok);
    settle.current = null;
    setMessage(null);
  };
  const switchTo = (m: Method) => {
    setMethod(m);
    setError(null);
  };
  const confirm = async () => {
    setBusy(true);
    try {
      await apiPost('/auth/confirm', method === 'code' ? { code } : { password });
      close(true);
    } catch (err) {
      if (method === 'code') setCode('');
      setError(err instanceof ApiError ? (err.errors?.[method] ?? err.message) : t('Something went wrong'));
    } finally {
      setBusy(false);
    }
  };
  const ready = method === 'code' ? code.length === 6 : password !== '';

  return (
    <Modal opened={message !== null} onClose={() => close(false)} title={t('Confirm it is you')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) void confirm();
        }}
      >
        <Stack gap="md">
          <Text size="sm">{message ? t(message) : ''}</Text>
          {method === 'code' ? (
            <CodeInput
              value={code}
              onChange={setCode}
              label={t('Code from the app')}
              autoFocus
              error={error ? t(error) : undefined}
            />
          ) : (
            <PasswordInput
              label={t('Password')}
              autoComplete="current-password"
              data-autofocus
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={error ? t(error) : undefined}
            />
          )}
          {hasCode && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => switchTo(method === 'code' ? 'password' : 'code')}
            >
              {method === 'code' ? t('Use my password instead') : t('Use a code from my authenticator app')}
            </Anchor>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => close(false)}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={!ready}>
              {t('Confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

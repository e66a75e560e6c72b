import type { ReactNode } from 'react';
import { Button, Center, Loader, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useQueryClient, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR } from '@platform/domain';
import { errorMessage } from '../../../api/client.ts';
import { applyServerErrors } from '../../../ui/form.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

/**
 * The save of a settings form (spreads, lots, trade APIs): sends the request, toasts the success text and reloads
 * the screen's data; on failure puts the server's field errors under the inputs and toasts its message (§8).
 */
export function useSettingsSave<V extends Record<string, unknown>>(form: UseFormReturnType<V>, queryKey: QueryKey) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return async (request: () => Promise<unknown>, success: string): Promise<void> => {
    try {
      await request();
      toastSuccess(success);
      await queryClient.invalidateQueries({ queryKey });
    } catch (err) {
      applyServerErrors(form, err);
      toastError(errorMessage(err, t(GENERIC_ERROR)));
    }
  };
}

/** A settings screen's data: a loader while it comes, the server's message if it fails, else the forms. */
export function Loaded<T>({
  query,
  minHeight = 200,
  children,
}: {
  query: UseQueryResult<T>;
  minHeight?: number;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isLoading)
    return (
      <Center mih={minHeight}>
        <Loader />
      </Center>
    );
  if (query.isError || !query.data)
    return (
      <Text c="red" ta="center" py="lg">
        {errorMessage(query.error, t(GENERIC_ERROR))}
      </Text>
    );
  return <>{children(query.data)}</>;
}

/** The submit button of a settings form, busy while it saves. */
export function UpdateButton({ submitting }: { submitting: boolean }) {
  const { t } = useTranslation();
  return (
    <Button type="submit" loading={submitting} disabled={submitting}>
      {t('Update')}
    </Button>
  );
}

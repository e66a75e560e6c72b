import { useEffect, useState } from 'react';
import { ActionIcon, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AdminLanguageDto } from '@platform/domain';
import { apiGet, apiPost, errorMessage } from '../../../api/client.ts';
import { queryKeys } from '../../../api/hooks.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

type Row = { name: string; code: string; saved: boolean };

/** Languages Settings (/admin/languages): the name/code list of the language menu, in order; edit opens its texts. */
export function LanguagesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['admin', 'languages'],
    queryFn: () => apiGet<{ data: AdminLanguageDto[] }>('/admin/languages'),
  });
  const [rows, setRows] = useState<Row[]>([]);
  useEffect(() => {
    if (query.data) setRows(query.data.data.map((l) => ({ name: l.name, code: l.code, saved: true })));
  }, [query.data]);
  const save = useMutation({
    mutationFn: () => apiPost('/admin/languages', { lotSelector: rows.map(({ name, code }) => ({ name, code })) }),
    onSuccess: async () => {
      toastSuccess(t('Languages updated successfully'));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['admin', 'languages'] }),
        queryClient.invalidateQueries({ queryKey: queryKeys.branding }),
      ]);
    },
    onError: (err) => toastError(errorMessage(err, t('Something went wrong'))),
  });
  const set = (i: number, patch: Partial<Row>) =>
    setRows((r) => r.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        {rows.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional entries of the form list
          <Group key={i} align="flex-end" wrap="nowrap">
            <TextInput
              label={t('Name')}
              value={row.name}
              onChange={(e) => set(i, { name: e.currentTarget.value })}
              flex={1}
            />
            <TextInput
              label={t('Code')}
              value={row.code}
              onChange={(e) => set(i, { code: e.currentTarget.value, saved: false })}
              w={120}
              disabled={row.code === 'en' && row.saved}
            />
            <ActionIcon
              component={Link}
              to={`/admin/languages/${row.code}`}
              variant="subtle"
              size="lg"
              aria-label={`${t('Edit')} ${row.code}`}
              disabled={!row.saved}
            >
              <IconPencil size={18} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`${t('Remove')} ${row.code}`}
              disabled={row.code === 'en' && row.saved}
              onClick={() => setRows((r) => r.filter((_, j) => j !== i))}
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Group>
        ))}
        <Text size="xs" c="dimmed">
          {t(
            'A removed language leaves the menu; its texts are kept and come back if the code is added again. English cannot be removed.',
          )}
        </Text>
        <Group justify="space-between">
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            onClick={() => setRows((r) => [...r, { name: '', code: '', saved: false }])}
          >
            {t('Add Language')}
          </Button>
          <Button onClick={() => save.mutate()} loading={save.isPending}>
            {t('Update')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

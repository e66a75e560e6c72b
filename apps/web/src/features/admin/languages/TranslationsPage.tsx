import { useMemo, useState } from 'react';
import { Button, Group, Modal, SegmentedControl, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TranslationDto } from '@platform/domain';
import { ApiError, apiDelete, apiPost, apiPut, errorMessage } from '../../../api/client.ts';
import {
  AddNewButton,
  DataTable,
  EditDeleteActions,
  useRefreshList,
  type DataTableColumn,
} from '../../../ui/data-table/index.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

type Editing = { mode: 'add'; key?: string } | { mode: 'edit'; row: TranslationDto };

function TranslationForm({ code, editing, onDone }: { code: string; editing: Editing; onDone: () => void }) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: {
      code,
      key: editing.mode === 'edit' ? editing.row.key : (editing.key ?? ''),
      value: editing.mode === 'edit' ? editing.row.value : '',
    },
    validate: {
      key: (v) => (v.trim() ? null : t('Key is required')),
      value: (v) => (v.trim() ? null : t('Value is required')),
    },
  });
  const save = useMutation({
    mutationFn: (v: typeof form.values) =>
      editing.mode === 'edit'
        ? apiPut(`/admin/languages/translations/${editing.row.id}`, v)
        : apiPost('/admin/languages/translations', v),
    onSuccess: () => {
      toastSuccess(t(editing.mode === 'edit' ? 'Translation updated successfully' : 'Translation added successfully'));
      onDone();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.errors) form.setErrors(err.errors);
      toastError(errorMessage(err, t('Something went wrong')));
    },
  });
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack>
        <TextInput label={t('Key')} withAsterisk {...form.getInputProps('key')} />
        <Textarea label={t('Value')} withAsterisk autosize minRows={2} {...form.getInputProps('value')} />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {t('Submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The translations of one language (/admin/languages/{code}); "Missing" lists keys clients asked for that have no text. */
export function TranslationsPage() {
  const { t } = useTranslation();
  const { code = 'en' } = useParams();
  const url = `/admin/languages/api/${code}`;
  const refresh = useRefreshList(url);
  const [view, setView] = useState<'all' | 'missing'>('all');
  const [editing, setEditing] = useState<Editing | null>(null);
  const columns = useMemo<DataTableColumn<TranslationDto>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 80, render: (r) => (r.missing ? '-' : r.id) },
      { key: 'key', label: t('KEY'), sortable: true },
      { key: 'value', label: t('VALUE') },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (r) =>
          r.missing ? (
            <Button size="compact-xs" variant="light" onClick={() => setEditing({ mode: 'add', key: r.key })}>
              {t('Translate')}
            </Button>
          ) : (
            <EditDeleteActions
              onEdit={() => setEditing({ mode: 'edit', row: r })}
              deleteMessage={t('Are you sure to delete this pair?')}
              onDelete={() =>
                void apiDelete(`/admin/languages/translations/${r.id}`).then(
                  () => (toastSuccess(t('Translation deleted successfully')), refresh()),
                  (err) => toastError(errorMessage(err, t('Something went wrong'))),
                )
              }
            />
          ),
      },
    ],
    [t, refresh],
  );
  const toolbar = (
    <>
      <SegmentedControl
        value={view}
        onChange={(v) => setView(v as 'all' | 'missing')}
        data={[
          { value: 'all', label: t('Translations') },
          { value: 'missing', label: t('Missing keys') },
        ]}
      />
      <AddNewButton onClick={() => setEditing({ mode: 'add' })} />
    </>
  );
  return (
    <>
      <DataTable<TranslationDto>
        url={url}
        columns={columns}
        filters={view === 'missing' ? { missing: '1' } : undefined}
        toolbar={toolbar}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="lg"
        title={editing?.mode === 'edit' ? t('Edit Translation') : t('Add Translation')}
      >
        {editing && (
          <TranslationForm
            code={code}
            editing={editing}
            onDone={() => {
              setEditing(null);
              void refresh();
            }}
          />
        )}
      </Modal>
    </>
  );
}

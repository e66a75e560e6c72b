import { useCallback, useMemo, useState } from 'react';
import { Button, Group, Modal, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TeamRequest, type MessageResponse, type TeamItem } from '@platform/domain';
import { ApiError, apiDelete, apiPost, apiPut, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { fieldProps, schemaErrors } from '../../../ui/form.ts';
import { AddNewButton, DataTable, EditDeleteActions, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { useStaffOfRole } from './LeadForm.tsx';

export const TEAMS_URL = '/admin/crm-config/teams/api';

type TeamFormValues = {
  name: string;
  code: string;
  userId: string;
  userIds: string[];
};

/** The form's values as the API payload (spec §7: name, code, userId, userIds as [{id}]). */
const toRequest = (v: TeamFormValues): TeamRequest => ({
  name: v.name,
  code: v.code,
  userId: v.userId,
  userIds: v.userIds.map((id) => ({ id: Number(id) })),
});

type Option = { value: string; label: string };
/** Picker options with the team's current people added when the picker no longer lists them (an inactive agent). */
function withCurrent(options: Option[], current: Option[]): Option[] {
  const known = new Set(options.map((o) => o.value));
  return [...options, ...current.filter((o) => !known.has(o.value))];
}

function TeamForm({ team, onSaved, onCancel }: { team?: TeamItem; onSaved: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const managers = useStaffOfRole(2, true);
  const agents = useStaffOfRole(5, true);
  const retention = useStaffOfRole(6, true);
  const form = useForm<TeamFormValues>({
    initialValues: {
      name: team?.name ?? '',
      code: team?.code ?? '',
      userId: team?.user_id ? String(team.user_id) : '',
      userIds: team?.members.map((m) => String(m.id)) ?? [],
    },
    validate: (v) => {
      const errors = schemaErrors(TeamRequest, toRequest(v));
      // Errors of one member ("userIds.0.id") show under the agents picker.
      const memberError = Object.entries(errors).find(([k]) => k.startsWith('userIds'))?.[1];
      return { name: errors.name, code: errors.code, userId: errors.userId, userIds: memberError };
    },
    validateInputOnBlur: true,
  });

  const managerOptions = useMemo(() => {
    const current = team?.manager ? [{ value: String(team.manager.id), label: team.manager.full_name }] : [];
    return withCurrent(
      managers.map((m) => ({ value: String(m.id), label: m.full_name })),
      current,
    );
  }, [managers, team]);
  // Agents and retention agents in one list (spec §2), grouped so each kind is told apart.
  const agentOptions = useMemo(() => {
    const toOption = (u: { id: number; full_name: string }) => ({ value: String(u.id), label: u.full_name });
    const listed = new Set([...agents, ...retention].map((u) => u.id));
    const others = (team?.members ?? []).filter((m) => !listed.has(m.id)).map(toOption);
    return [
      { group: t('Agents'), items: agents.map(toOption) },
      { group: t('Retention Agents'), items: retention.map(toOption) },
      ...(others.length > 0 ? [{ group: t('Current members'), items: others }] : []),
    ].filter((g) => g.items.length > 0);
  }, [agents, retention, team, t]);

  const submit = async (v: TeamFormValues) => {
    try {
      const body = toRequest(v);
      if (team) await apiPut<MessageResponse>(`/admin/crm-config/teams/${team.id}`, body);
      else await apiPost<MessageResponse>('/admin/crm-config/teams', body);
      toastSuccess(t(team ? 'Team updated successfully' : 'Team added successfully'));
      onSaved();
    } catch (err) {
      if (err instanceof ApiError && err.errors) form.setErrors(err.errors);
      toastError(errorMessage(err, t('Something went wrong')));
    }
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <TextInput label={t('Name')} withAsterisk {...fieldProps(form, 'name', t)} />
        <TextInput label={t('Code')} {...fieldProps(form, 'code', t)} />
        <Select
          label={t('Manager')}
          placeholder={t('Choose a manager')}
          withAsterisk
          searchable
          data={managerOptions}
          {...fieldProps(form, 'userId', t)}
        />
        <MultiSelect
          label={t('Agents')}
          placeholder={t('Choose agents')}
          searchable
          clearable
          data={agentOptions}
          {...fieldProps(form, 'userIds', t)}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={form.submitting} disabled={form.submitting}>
            {team ? t('Update') : t('Submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** CRM configuration: Teams (/admin/crm-config/teams), back-office §2; admins only. */
export function TeamsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [editing, setEditing] = useState<TeamItem | 'new' | null>(null);
  const refresh = useCallback(() => client.invalidateQueries({ queryKey: ['list'] }), [client]);

  const remove = useCallback(
    async (team: TeamItem) => {
      try {
        await apiDelete(`/admin/crm-config/teams/${team.id}`);
        toastSuccess(t('Team deleted successfully'));
        await refresh();
      } catch {
        toastError(t('Something went wrong'));
      }
    },
    [t, refresh],
  );

  const columns = useMemo<DataTableColumn<TeamItem>[]>(
    () => [
      { key: 'name', label: t('NAME'), sortable: true },
      { key: 'code', label: t('CODE'), sortable: true },
      {
        key: 'manager',
        label: t('MANAGER'),
        sortable: true,
        sortValue: (r) => r.manager?.full_name,
        render: (r) => r.manager?.full_name,
      },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (r) => (
          <EditDeleteActions
            onEdit={() => setEditing(r)}
            deleteMessage={t('Are you sure to delete this team?')}
            onDelete={() => remove(r)}
          />
        ),
      },
    ],
    [t, remove],
  );

  return (
    <>
      <DataTable<TeamItem>
        url={TEAMS_URL}
        columns={columns}
        toolbar={<AddNewButton onClick={() => setEditing('new')} />}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="lg"
        title={editing === 'new' ? t('Add Team') : t('Edit Team')}
      >
        {editing !== null && (
          <TeamForm
            team={editing === 'new' ? undefined : editing}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              void refresh();
            }}
          />
        )}
      </Modal>
    </>
  );
}

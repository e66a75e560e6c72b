import { useMemo } from 'react';
import { MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { TeamRequest, type TeamItem } from '@platform/domain';
import { fieldProps, schemaErrors } from '../../../ui/form.ts';
import { FormActions, useSaveItem, type ListFormProps } from '../../../ui/list-page/index.ts';
import { useStaffOfRole } from './LeadForm.tsx';

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

/** Add or edit a team (POST /admin/crm-config/teams, PUT .../{id}): a manager and agents of both kinds. */
export function TeamForm({ item: team, onSaved, onCancel }: ListFormProps<TeamItem>) {
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

  const submit = useSaveItem(form, {
    url: '/admin/crm-config/teams',
    id: team?.id,
    body: toRequest,
    savedMessage: t(team ? 'Team updated successfully' : 'Team added successfully'),
    onSaved,
  });

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
        <FormActions editing={Boolean(team)} submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TeamItem } from '@platform/domain';
import type { DataTableColumn } from '../../../ui/data-table/index.ts';
import { ListPage } from '../../../ui/list-page/index.ts';
import { TeamForm } from './TeamForm.tsx';

export const TEAMS_URL = '/admin/crm-config/teams/api';

const deleteUrl = (team: TeamItem) => `/admin/crm-config/teams/${team.id}`;

/** CRM configuration: Teams (/admin/crm-config/teams), back-office §2; admins only. */
export function TeamsPage() {
  const { t } = useTranslation();
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
    ],
    [t],
  );
  return (
    <ListPage<TeamItem>
      url={TEAMS_URL}
      columns={columns}
      // A team change reloads every list, as this screen always has (not only the teams).
      refreshAllLists
      addTitle={t('Add Team')}
      editTitle={t('Edit Team')}
      deleteMessage={t('Are you sure to delete this team?')}
      deleteUrl={deleteUrl}
      deletedMessage={t('Team deleted successfully')}
      form={(props) => <TeamForm {...props} />}
    />
  );
}

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ROLE_NAMES, isRoleId, type StaffUserDto } from '@platform/domain';
import { OnlineName, StatusChip, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { ListPage } from '../../../ui/list-page/index.ts';
import { StaffUserForm } from './StaffUserForm.tsx';
import { SignInLockNotice } from './SignInLockNotice.tsx';
import { TwoFactorReset } from './TwoFactorReset.tsx';

export const STAFF_USERS_URL = '/admin/users/api';

const deleteUrl = (user: StaffUserDto) => `/admin/users/${user.id}`;

/** Admin & Staffs (/admin/users): staff accounts with add, edit and delete (back-office spec §2). */
export function StaffUsersPage() {
  const { t } = useTranslation();
  const columns = useMemo<DataTableColumn<StaffUserDto>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      {
        key: 'full_name',
        label: t('FULL NAME'),
        sortable: true,
        render: (u) => (
          <OnlineName name={u.full_name} online={u.online} onlineLabel={t('Online')} offlineLabel={t('Offline')} />
        ),
      },
      { key: 'email', label: t('EMAIL'), sortable: true },
      {
        key: 'role_id',
        label: t('ROLE'),
        sortable: true,
        render: (u) => (isRoleId(u.role_id) ? t(ROLE_NAMES[u.role_id]) : null),
      },
      {
        key: 'is_email_verified',
        label: t('EMAIL VERIFIED'),
        sortable: true,
        render: (u) => (u.is_email_verified ? t('Yes') : t('No')),
      },
      {
        key: 'is_active',
        label: t('STATUS'),
        sortable: true,
        render: (u) =>
          u.is_active ? (
            <StatusChip label={t('Active')} color="green" />
          ) : (
            <StatusChip label={t('Inactive')} color="red" />
          ),
      },
    ],
    [t],
  );
  return (
    <ListPage<StaffUserDto>
      url={STAFF_USERS_URL}
      columns={columns}
      exportable
      addTitle={t('Add New User')}
      editTitle={t('Edit User')}
      deleteMessage={t('Are you sure to delete this user?')}
      deleteUrl={deleteUrl}
      // Spec §8: a failed delete shows the generic text, not the server's message.
      deletedMessage={t('User deleted successfully')}
      form={({ item: user, ...props }) => (
        <>
          {user && <SignInLockNotice userId={user.id} />}
          {user && <TwoFactorReset userId={user.id} />}
          <StaffUserForm user={user} defaultRoleId={1} {...props} />
        </>
      )}
    />
  );
}

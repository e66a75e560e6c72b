import { useCallback, useMemo, useState } from 'react';
import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ROLE_NAMES, isRoleId, type StaffUserDto } from '@platform/domain';
import { apiDelete } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import {
  AddNewButton,
  DataTable,
  EditDeleteActions,
  OnlineName,
  StatusChip,
  useRefreshList,
  type DataTableColumn,
} from '../../../ui/data-table/index.ts';
import { StaffUserForm } from './StaffUserForm.tsx';
import { SignInLockNotice } from './SignInLockNotice.tsx';
import { TwoFactorReset } from './TwoFactorReset.tsx';

export const STAFF_USERS_URL = '/admin/users/api';

type Editing = { mode: 'add' } | { mode: 'edit'; user: StaffUserDto } | null;

/** Admin & Staffs (/admin/users): staff accounts with add, edit and delete (back-office spec §2). */
export function StaffUsersPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Editing>(null);
  const refresh = useRefreshList(STAFF_USERS_URL);

  const remove = useCallback(
    async (user: StaffUserDto) => {
      try {
        await apiDelete(`/admin/users/${user.id}`);
      } catch {
        // Spec §8: a failed delete shows the generic text, not the server's message.
        toastError(t('Something went wrong'));
        return;
      }
      toastSuccess(t('User deleted successfully'));
      await refresh();
    },
    [t, refresh],
  );

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
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (u) => (
          <EditDeleteActions
            onEdit={() => setEditing({ mode: 'edit', user: u })}
            deleteMessage={t('Are you sure to delete this user?')}
            onDelete={() => remove(u)}
          />
        ),
      },
    ],
    [t, remove],
  );

  const close = () => setEditing(null);

  return (
    <>
      <DataTable<StaffUserDto>
        url={STAFF_USERS_URL}
        columns={columns}
        toolbar={<AddNewButton onClick={() => setEditing({ mode: 'add' })} />}
        exportable
      />
      <Modal
        opened={editing !== null}
        onClose={close}
        size="lg"
        title={editing?.mode === 'edit' ? t('Edit User') : t('Add New User')}
      >
        {editing?.mode === 'edit' && <SignInLockNotice userId={editing.user.id} />}
        {editing?.mode === 'edit' && <TwoFactorReset userId={editing.user.id} />}
        {editing && (
          <StaffUserForm
            key={editing.mode === 'edit' ? editing.user.id : 'new'}
            user={editing.mode === 'edit' ? editing.user : undefined}
            defaultRoleId={1}
            onCancel={close}
            onSaved={() => {
              close();
              void refresh();
            }}
          />
        )}
      </Modal>
    </>
  );
}

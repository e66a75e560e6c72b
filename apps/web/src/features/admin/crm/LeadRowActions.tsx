import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconArrowRight, IconCopy, IconEye, IconNotes, IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { LeadItem } from '@platform/domain';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { ConfirmPopover } from '../../../ui/data-table/index.ts';
import { CallButton, type CallAgents } from './CallControls.tsx';
import { OutcomeMenu, ScheduleButton } from './SalesFloorControls.tsx';

/** Who is looking at the list, as far as the row's actions care. */
export interface LeadRowPowers {
  affiliate: boolean;
  /** Sales agents (role 5) do not open customers' pages from a lead. */
  salesAgent: boolean;
  canEdit: boolean;
  canDelete: boolean;
  /** Click-to-call, call outcomes and call-backs: staff and agents working leads. */
  caller: boolean;
}

/** What a row's actions ask of the list. */
export interface LeadRowHandlers {
  view: (l: LeadItem) => void;
  convert: (l: LeadItem) => void;
  edit: (l: LeadItem) => void;
  remove: (l: LeadItem) => void;
  notes: (l: LeadItem) => void;
  schedule: (l: LeadItem) => void;
  /** A call started on the row (its outcome menu then opens by itself), or the menu opened or closed. */
  prompt: (leadId: number | null) => void;
  refresh: () => void;
}

/**
 * A lead's actions (spec §2): view the customer or convert, edit, delete, notes, call, record the call's outcome,
 * schedule a call-back, copy the phone. On customers' two-line rows they take two rows of four, so the list's own
 * columns fit beside them at 1440 px.
 */
export function LeadRowActions({
  lead: l,
  twoRows,
  powers,
  handlers,
  callAgents,
  statuses,
  prompted,
}: {
  lead: LeadItem;
  twoRows: boolean;
  powers: LeadRowPowers;
  handlers: LeadRowHandlers;
  callAgents: CallAgents;
  statuses: string[];
  prompted: boolean;
}) {
  const { t } = useTranslation();
  const { affiliate, caller } = powers;

  const copyPhone = async (phone: string) => {
    // Claimed only once the browser took it (no clipboard outside HTTPS, or permission refused).
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(phone);
      toastSuccess(t('Phone number copied to clipboard'));
    } catch {
      toastError(t('Something went wrong'));
    }
  };

  return (
    <Group gap={2} wrap={twoRows ? 'wrap' : 'nowrap'} w={twoRows ? 126 : undefined}>
      {l.linked ? (
        <Tooltip label={t('View User')}>
          <ActionIcon
            variant="subtle"
            aria-label={t('View User')}
            onClick={() => handlers.view(l)}
            disabled={affiliate || powers.salesAgent}
          >
            <IconEye size={18} />
          </ActionIcon>
        </Tooltip>
      ) : (
        !affiliate && (
          <Tooltip label={t('Convert')}>
            <ActionIcon variant="subtle" color="teal" aria-label={t('Convert')} onClick={() => handlers.convert(l)}>
              <IconArrowRight size={18} />
            </ActionIcon>
          </Tooltip>
        )
      )}
      {powers.canEdit && (
        <Tooltip label={t('Edit')}>
          <ActionIcon variant="subtle" aria-label={t('Edit')} onClick={() => handlers.edit(l)}>
            <IconPencil size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {powers.canDelete && (
        <ConfirmPopover message={t('Are you sure to delete this lead?')} onConfirm={() => handlers.remove(l)}>
          <ActionIcon variant="subtle" color="red" aria-label={t('Delete')}>
            <IconTrash size={18} />
          </ActionIcon>
        </ConfirmPopover>
      )}
      {!affiliate && (
        <Tooltip label={t('Notes')}>
          <ActionIcon variant="subtle" aria-label={t('Notes')} onClick={() => handlers.notes(l)}>
            <IconNotes size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {caller && <CallButton lead={l} agents={callAgents} onStarted={() => handlers.prompt(l.id)} />}
      {caller && (
        <OutcomeMenu
          leadId={l.id}
          current={l.lead_status}
          statuses={statuses}
          prompted={prompted}
          onPromptChange={(open) => handlers.prompt(open ? l.id : null)}
          onDone={handlers.refresh}
        />
      )}
      {caller && <ScheduleButton onClick={() => handlers.schedule(l)} />}
      {l.phone && !l.masked && (
        <Tooltip label={t('Phone')}>
          <ActionIcon variant="subtle" aria-label={t('Phone')} onClick={() => void copyPhone(l.phone!)}>
            <IconCopy size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

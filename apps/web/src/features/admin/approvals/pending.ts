import type { TFunction } from 'i18next';
import type { ApprovalPendingResponse } from '@platform/domain';
import { toastInfo } from '../../../ui/toast.ts';

/** The answer of an action that went to a second person for approval (HTTP 202), or null when it took effect. */
export function approvalPendingOf(res: unknown): ApprovalPendingResponse | null {
  return res && typeof res === 'object' && typeof (res as { approvalId?: unknown }).approvalId === 'number'
    ? (res as ApprovalPendingResponse)
    : null;
}

/**
 * Tells the user an action now waits for a second person instead of claiming success; true when it did, so the
 * caller skips its success message.
 */
export function toastIfSentForApproval(t: TFunction, res: unknown): boolean {
  const pending = approvalPendingOf(res);
  if (!pending) return false;
  toastInfo(t('Sent for approval'), `${t(pending.message)} (#${pending.approvalId})`);
  return true;
}

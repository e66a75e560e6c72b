import { AppShell } from '@mantine/core';
import { Outlet } from 'react-router';
import { useCurrentUser } from '../../api/hooks.ts';
import { LoadingScreen } from '../../ui/shell/LoadingScreen.tsx';
import { RiskWarning } from '../../ui/shell/RiskWarning.tsx';
import { useTerminalShown } from '../../features/trading/useTerminal.ts';
import { useBrandingHead } from '../useBrandingHead.ts';
import { TopBar } from './topbar/TopBar.tsx';
import { usePageTracking } from './usePageTracking.ts';
import { ForcedPlanModal } from '../../features/money/pricing/ForcedPlanModal.tsx';

/** Signed-in pages: the top bar over the page. Rendered inside RequireUser, so the user is known. */
export function ClientLayout() {
  useBrandingHead();
  const { data } = useCurrentUser();
  // Customers' page views feed the back office's Tracking tab; staff browsing the client area are not tracked.
  usePageTracking(data?.user.role_id === 3);
  // The terminal fits the window and ends with the warning itself; every other page ends with it here.
  const terminal = useTerminalShown();
  if (!data) return <LoadingScreen />;
  return (
    <AppShell header={{ height: 64 }} padding="md">
      <AppShell.Header>
        <TopBar current={data} />
      </AppShell.Header>
      <AppShell.Main>
        <Outlet />
        {terminal ? null : <RiskWarning />}
        <ForcedPlanModal />
      </AppShell.Main>
    </AppShell>
  );
}

import { Badge, Button } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { BalanceDto } from '@platform/domain';
import type { TargetHandlers } from '../../../ui/shell/MenuOnUse.tsx';

/** The wallet switcher's button: the active wallet's mode and currency. */
export function walletTarget(
  active: BalanceDto,
  modeLabel: string,
  { fullWidth = false, loading = false }: { fullWidth?: boolean; loading?: boolean },
  on: TargetHandlers = {},
) {
  return (
    <Button
      variant="default"
      size="compact-sm"
      fullWidth={fullWidth}
      loading={loading}
      rightSection={<IconChevronDown size={14} />}
      leftSection={
        <Badge size="xs" variant="filled" color={active.mode === 'demo' ? 'yellow' : 'teal'}>
          {modeLabel}
        </Badge>
      }
      {...on}
    >
      {active.currency}
    </Button>
  );
}

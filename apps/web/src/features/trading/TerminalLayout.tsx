import type { ReactNode } from 'react';
import { Box, Stack } from '@mantine/core';
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { RiskWarning } from '../../ui/shell/RiskWarning.tsx';
import classes from './TerminalLayout.module.css';

export interface TerminalLayoutProps {
  banner?: ReactNode;
  instruments: ReactNode;
  chart: ReactNode;
  positions: ReactNode;
}

/**
 * The dashboard on wide screens, laid out like a trading terminal: the instrument list, the chart and the positions
 * as panels that fill the window below the top bar (no page scroll), each scrolling on its own. The dividers can
 * be dragged; the sizes are remembered in this browser.
 */
export function TerminalLayout({ banner, instruments, chart, positions }: TerminalLayoutProps) {
  const columns = useDefaultLayout({ id: 'terminal-columns', storage: localStorage });
  const rows = useDefaultLayout({ id: 'terminal-rows', storage: localStorage });
  return (
    <Stack gap="xs" className={classes.root} data-testid="terminal">
      {banner}
      <Box className={classes.body}>
        <Group
          orientation="horizontal"
          id="terminal-columns"
          defaultLayout={columns.defaultLayout}
          onLayoutChanged={columns.onLayoutChanged}
        >
          <Panel id="instruments" defaultSize="28%" minSize="300px" maxSize="45%">
            <Stack gap="xs" className={classes.scroll} data-testid="terminal-instruments">
              {instruments}
            </Stack>
          </Panel>
          <Separator className={classes.separatorColumns} />
          <Panel id="workspace" minSize="40%">
            <Group
              orientation="vertical"
              id="terminal-rows"
              defaultLayout={rows.defaultLayout}
              onLayoutChanged={rows.onLayoutChanged}
            >
              <Panel id="chart" defaultSize="58%" minSize="220px">
                {chart}
              </Panel>
              <Separator className={classes.separatorRows} />
              <Panel id="positions" minSize="150px">
                {positions}
              </Panel>
            </Group>
          </Panel>
        </Group>
      </Box>
      <RiskWarning compact />
    </Stack>
  );
}

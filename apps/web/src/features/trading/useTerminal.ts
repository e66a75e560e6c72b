import { useMediaQuery } from '@mantine/hooks';
import { useMatch } from 'react-router';

/** From 1200 px the dashboard is a terminal: resizable panels that fit the window, each scrolling on its own. */
export const useWideScreen = (): boolean =>
  useMediaQuery('(min-width: 75em)', true, { getInitialValueInEffect: false });

/** Whether the page shown is the dashboard as a terminal, which fits the window and carries the risk warning itself. */
export function useTerminalShown(): boolean {
  const wide = useWideScreen();
  return Boolean(useMatch('/dashboard')) && wide;
}

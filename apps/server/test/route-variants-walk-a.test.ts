import { walkRoutes } from './route-variants-kit.ts';

walkRoutes(0, 3);

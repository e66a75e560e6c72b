import { walkRoutes } from './route-variants-kit.ts';

walkRoutes(1, 3);

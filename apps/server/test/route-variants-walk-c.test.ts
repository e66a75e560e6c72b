import { walkRoutes } from './route-variants-kit.ts';

walkRoutes(2, 3);

export { MetricsModule } from './metrics.module.js';
export { MetricsController } from './metrics.controller.js';
export { routeLabel, UNMATCHED_ROUTE } from './http-metrics.hooks.js';

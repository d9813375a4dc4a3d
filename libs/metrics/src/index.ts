export { MetricsModule } from './metrics.module.js';
export { MetricsController } from './metrics.controller.js';
export { HttpMetricsMiddleware, routeLabel, UNMATCHED_ROUTE } from './http-metrics.middleware.js';

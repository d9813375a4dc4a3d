export { MetricsModule } from './metrics.module.js';
export { MetricsController } from './metrics.controller.js';

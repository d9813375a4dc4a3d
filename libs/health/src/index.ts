export { HealthModule } from './health.module.js';
export { StartingServer } from './start-up/starting-server.js';
export { databaseDependency, kafkaDependency } from './start-up/start-up-dependencies.js';
export type { StartUpDependency } from './start-up/wait-for-dependencies.js';

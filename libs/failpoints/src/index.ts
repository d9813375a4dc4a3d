export {
  armFailpoints,
  defineFailpoints,
  failpoint,
  failpointsFromEnv,
  FAILPOINTS_ENABLED,
  failpointAction,
  failpointFires,
  failpointMarker,
  failpointSleepMarker,
  parseFailpoints,
  type ArmedFailpoint,
  type FailpointAction,
  type FailpointName,
  type FailpointSpec,
} from './failpoint.js';
export { failpointsEnv } from './failpoints.config.js';

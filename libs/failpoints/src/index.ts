export {
  defineFailpoints,
  failpoint,
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

export {
  failpoint,
  failpointAction,
  failpointFires,
  failpointMarker,
  failpointSleepMarker,
  FailpointNames,
  parseFailpoints,
  type ArmedFailpoint,
  type FailpointAction,
  type FailpointName,
  type FailpointSpec,
} from './failpoint.js';

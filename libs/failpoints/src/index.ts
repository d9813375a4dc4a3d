export { failpoint, failpointFires, failpointMarker, FailpointNames, parseFailpoints, type FailpointName, type FailpointSpec } from './failpoint.js';

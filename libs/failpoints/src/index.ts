export { failpoint, failpointMarker, FailpointNames, type FailpointName } from './failpoint.js';

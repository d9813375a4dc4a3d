export { retryDelayMs } from './retry-delay.js';
export { delay } from './delay.js';

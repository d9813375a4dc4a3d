// The public entry of the loyalty app for local tooling (service catalog): its configuration
// schema. Loyalty consumes no topic (it is the HTTP partner inventory calls).
export { loyaltyEnv } from './loyalty.config.js';

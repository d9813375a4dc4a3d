export { httpEnv } from './http.config.js';
export { strictValidationPipe } from './validation.pipe.js';
export { configureHttpApp } from './configure-http-app.js';
export { Satisfies, type FieldCheck } from './satisfies.decorator.js';

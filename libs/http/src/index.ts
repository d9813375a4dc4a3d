export { httpEnv } from './http.config.js';
export { strictValidationPipe } from './validation.pipe.js';
export { configureHttpApp } from './configure-http-app.js';
export { Satisfies, type FieldCheck } from './satisfies.decorator.js';
export { setupApiDocs, type ApiDocsOptions } from './api-docs.js';
export { ApiErrorResponse } from './api-error.response.js';
export { ApiErrors } from './api-errors.decorator.js';

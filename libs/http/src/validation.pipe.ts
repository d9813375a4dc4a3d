import { ValidationPipe, type ValidationError } from '@nestjs/common';
import type { FieldProblem } from './problem-details.js';
import { validationFailed } from './problem.exception.js';

function flatten(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? (/^\d+$/.test(error.property) ? `${parent}[${error.property}]` : `${parent}.${error.property}`) : error.property;
    const own = Object.values(error.constraints ?? {}).map((problem) => ({
      field,
      detail: problem.startsWith(field) ? problem : `${field}: ${problem}`,
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * Validates bodies against their request classes. Unknown fields are rejected (not silently
 * dropped), and the 400 names every field in error with its full path (`items[0].quantity`).
 */
export function strictValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => validationFailed(flatten(errors)),
  });
}

import { BadRequestException, ValidationPipe, type ValidationError } from '@nestjs/common';

function flatten(errors: ValidationError[], parent = ''): { field: string; problems: string[] }[] {
  return errors.flatMap((error) => {
    const field = parent ? (/^\d+$/.test(error.property) ? `${parent}[${error.property}]` : `${parent}.${error.property}`) : error.property;
    const own = error.constraints ? [{ field, problems: Object.values(error.constraints) }] : [];
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
    exceptionFactory: (errors) => {
      const fields = flatten(errors);
      return new BadRequestException({
        statusCode: 400,
        error: 'Bad Request',
        message: fields.flatMap(({ field, problems }) =>
          problems.map((problem) => (problem.startsWith(field) ? problem : `${field}: ${problem}`)),
        ),
        fields: fields.map(({ field }) => field),
      });
    },
  });
}

import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { validate } from 'class-validator';
import { LIST_BOUNDS_GROUP } from './list-bounds.js';
import type { FieldProblem } from './problem-details.js';
import { validationFailed } from './problem.exception.js';

/**
 * The most problems one 400 reports; the answer then says `truncated: true`. A client fixes the
 * first ones and retries; a longer list only costs the server its computation and the network its
 * bytes. Lists are bounded before their items are checked (see `LIST_BOUNDS_GROUP`), so this cap
 * is a second line, for a body with many bad fields.
 */
export const MAX_REPORTED_PROBLEMS = 20;

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
 * The instance each raw body became, by request class: a body validated before the handler's
 * pipeline (`validateRequestBody`, by the idempotency interceptor) is not validated a second time
 * when the handler's own pipe meets the same object. Weak: an entry lives as long as its request.
 */
const validated = new WeakMap<object, { metatype: unknown; instance: unknown }>();

/**
 * Validation in two passes. First the list bounds alone (the `LIST_BOUNDS_GROUP` checks) on a
 * shallow copy of the raw value: nothing is transformed and no item is visited, so an over-long
 * list costs a count and is one problem. (Building 21,000 line instances alone took seconds.)
 * Then, only when the bounds hold, the usual transform and full validation.
 */
class BoundsFirstValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype } = metadata;
    if (typeof metatype === 'function' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const earlier = validated.get(value);
      if (earlier?.metatype === metatype) return earlier.instance;
      const shallow = Object.assign(Object.create(metatype.prototype as object) as object, value);
      const bounds = await validate(shallow, {
        groups: [LIST_BOUNDS_GROUP],
        forbidUnknownValues: false,
        validationError: { target: false, value: false },
      });
      if (bounds.length > 0) throw await this.exceptionFactory(bounds);
      const instance: unknown = await super.transform(value, metadata);
      validated.set(value, { metatype, instance });
      return instance;
    }
    return super.transform(value, metadata);
  }
}

/**
 * Validates bodies against their request classes. Unknown fields are rejected (not silently
 * dropped), and the 400 names every field in error with its full path (`items[0].quantity`), up
 * to {@link MAX_REPORTED_PROBLEMS}. A list longer than its maximum is refused before its items
 * are checked, as one problem.
 */
export function strictValidationPipe(): ValidationPipe {
  return new BoundsFirstValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => validationFailed(flatten(errors), MAX_REPORTED_PROBLEMS),
  });
}

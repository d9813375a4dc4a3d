import { applyDecorators } from '@nestjs/common';
import { ApiHideProperty } from '@nestjs/swagger';
import { registerDecorator, type ValidationArguments } from 'class-validator';

/**
 * Marks a field that the server sets itself and a client must not send (a price, a total): a
 * request that carries it is refused with 400 naming the field, `why` saying where the value comes
 * from, instead of the generic "should not exist" of an unknown field. The field stays out of the
 * OpenAPI schema (it is not an input). Use it where clients of an earlier version sent the field,
 * so that they learn why it is refused rather than have it silently dropped.
 *
 * @example
 * class OrderLineRequest {
 *   @SetByServer('prices come from the price list')
 *   unitPriceCents?: never;
 * }
 */
export function SetByServer(why: string): PropertyDecorator {
  const refuse: PropertyDecorator = (target, propertyName) => {
    registerDecorator({
      name: 'setByServer',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => value === undefined,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? String(propertyName)} must not be sent: it is set by the server (${why})`,
      },
    });
  };
  return applyDecorators(ApiHideProperty(), refuse);
}

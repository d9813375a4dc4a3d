import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { registerDecorator, type ValidationArguments } from 'class-validator';
import { jsonSchemaOf, schemaProblems, type StandardSchemaV1 } from '@libs/envelope';
import { registerListBound } from './list-bounds.js';

/**
 * Validates and documents a request field with a contract's own schema (any Standard Schema: the
 * domain's contracts declare theirs with zod) instead of a second, hand-written set of validation
 * and `@ApiProperty` decorators: the API then refuses exactly what the event's consumers would
 * refuse, counting lengths the same way (`@Length` and the contract once counted different
 * units, so one accepted what the other refused), and its OpenAPI schema is the contract's (Standard JSON Schema, OpenAPI 3.0 dialect).
 * The 400 names the field with the schema's message. `api` adds to the documentation (an
 * example) or overrides it; a class given as `api.type` documents the value, and for an array its
 * items, instead of the schema.
 *
 * @example
 * class PlaceOrderRequest {
 *   @Satisfies(OrderFields.customerId, { example: 'c1' })
 *   customerId: string;
 * }
 */
export function Satisfies(schema: StandardSchemaV1, api: ApiPropertyOptions = {}): PropertyDecorator {
  const validate: PropertyDecorator = (target, propertyName) => {
    registerDecorator({
      name: 'satisfiesContract',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => schemaProblems(schema, value).length === 0,
        defaultMessage: (args?: ValidationArguments) =>
          schemaProblems(schema, args?.value, args?.property ?? String(propertyName)).join('; '),
      },
    });
  };
  const documented = jsonSchemaOf(schema, 'openapi-3.0');
  // A list's length is checked first and alone (see LIST_BOUNDS_GROUP): its items, validated
  // one by one by `@ValidateNested`, are not looked at when there are too many of them.
  const maxItems = typeof documented.maxItems === 'number' ? documented.maxItems : undefined;
  const bound: PropertyDecorator = (target, propertyName) => {
    if (maxItems !== undefined) registerListBound(target, String(propertyName), maxItems);
  };
  if (api.type !== undefined) delete documented.items;
  return applyDecorators(ApiProperty({ ...documented, ...api }), validate, bound);
}

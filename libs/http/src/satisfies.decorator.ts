import { registerDecorator, type ValidationArguments } from 'class-validator';
import { schemaProblems, type StandardSchemaV1 } from '@app/envelope';

/**
 * Validates a request field with a contract's own schema (any Standard Schema: the domain's
 * contracts declare theirs with zod) instead of a second, hand-written set of decorators: the API
 * then refuses exactly what the event's consumers would refuse, counting lengths the same way
 * (issue 7: `@Length` and the contract counted different units). The 400 names the field with the
 * schema's message.
 *
 * @example
 * class PlaceOrderRequest {
 *   @Satisfies(OrderFields.customerId)
 *   customerId: string;
 * }
 */
export function Satisfies(schema: StandardSchemaV1): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name: 'satisfiesContract',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => schemaProblems(schema, value).length === 0,
        defaultMessage: (args?: ValidationArguments) => schemaProblems(schema, args?.value, args?.property ?? String(propertyName)).join('; '),
      },
    });
  };
}

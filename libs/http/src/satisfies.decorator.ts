import { registerDecorator, type ValidationArguments } from 'class-validator';

/** A check as `libs/contracts` declares them: the problems of `value` at `path`, empty when valid. */
export type FieldCheck = (value: unknown, path: string) => string[];

/**
 * Validates a request field with a contract's own check instead of a second, hand-written set of
 * decorators: the API then refuses exactly what the event's consumers would refuse, counting
 * lengths the same way (issue 7: `@Length` and the contract counted different units). The 400
 * names the field with the check's message.
 *
 * @example
 * class PlaceOrderRequest {
 *   @Satisfies(OrderChecks.customerId)
 *   customerId: string;
 * }
 */
export function Satisfies(fieldCheck: FieldCheck): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name: 'satisfiesContract',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown, args: ValidationArguments) => fieldCheck(value, args.property).length === 0,
        defaultMessage: (args?: ValidationArguments) => fieldCheck(args?.value, args?.property ?? String(propertyName)).join('; '),
      },
    });
  };
}

import { type PipeTransform } from '@nestjs/common';
import { validationFailed } from './problem.exception.js';

/**
 * The UUIDs ids are minted as: version 7 (time-ordered, `timeOrderedUuid()`), and version 4 for
 * rows written before ids were time-ordered, which stay readable. Either case, RFC variant only.
 */
const ID_UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[47][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;

/** Parses the path parameter `name` as an id UUID (version 7 or 4); anything else is a 400 naming the parameter. */
export function uuidParam(name: string): PipeTransform<unknown, string> {
  return {
    transform(value: unknown): string {
      if (typeof value === 'string' && ID_UUID.test(value)) return value;
      throw validationFailed([{ field: name, detail: `${name} must be a UUID (version 7 or 4)` }]);
    },
  };
}

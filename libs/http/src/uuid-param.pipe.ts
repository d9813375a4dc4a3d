import { ParseUUIDPipe } from '@nestjs/common';
import { validationFailed } from './problem.exception.js';

/** Parses the path parameter `name` as a UUID v4; anything else is a 400 naming the parameter. */
export function uuidV4Param(name: string): ParseUUIDPipe {
  return new ParseUUIDPipe({
    version: '4',
    exceptionFactory: () => validationFailed([{ field: name, detail: `${name} must be a UUID v4` }]),
  });
}

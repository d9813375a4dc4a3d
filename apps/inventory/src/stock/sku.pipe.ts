import { BadRequestException, type PipeTransform } from '@nestjs/common';
import { SKU_PATTERN } from '@app/contracts';

/** 400 naming the parameter when a path SKU is malformed. */
export class SkuPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!SKU_PATTERN.test(value)) {
      throw new BadRequestException({ statusCode: 400, message: ['sku must be 1 to 64 upper-case letters, digits or dashes'], fields: ['sku'] });
    }
    return value;
  }
}

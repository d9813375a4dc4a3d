import type { PipeTransform } from '@nestjs/common';
import { OrderFields } from '@libs/contracts';
import { schemaProblems } from '@libs/envelope';
import { validationFailed } from '@libs/http';

/** 400 naming the parameter when a path SKU is not one an order could name (the contract's own check). */
export class SkuPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    const problems = schemaProblems(OrderFields.sku, value, 'sku');
    if (problems.length > 0) throw validationFailed(problems.map((detail) => ({ field: 'sku', detail })));
    return value;
  }
}

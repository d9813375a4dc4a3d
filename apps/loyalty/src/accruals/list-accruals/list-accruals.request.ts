import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

/** Page sizes of `GET /accruals`: a caller that sends no `limit` gets 50; none gets more than 100. */
export const AccrualPages = { defaultLimit: 50, maxLimit: 100 } as const;

/**
 * `GET /accruals` takes no customer: it lists the caller's own (the token's subject), so strict
 * validation refuses a `customerId` with a 400 naming it instead of ignoring it. A page is
 * `limit` rows after `cursor`.
 */
export class ListAccrualsRequest {
  @ApiPropertyOptional({
    description: `Accruals per page, 1 to ${AccrualPages.maxLimit}`,
    default: AccrualPages.defaultLimit,
    minimum: 1,
    maximum: AccrualPages.maxLimit,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(AccrualPages.maxLimit)
  limit?: number;

  @ApiPropertyOptional({ description: "The previous page's `nextCursor`, as given; absent for the first page" })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,300}$/, { message: 'cursor must be a nextCursor of this API, as given' })
  cursor?: string;
}

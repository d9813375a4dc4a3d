import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { AccrualFields } from '@app/contracts';
import { Satisfies } from '@app/http';

/** Page sizes of `GET /accruals`: a caller that sends no `limit` gets 50; none gets more than 100. */
export const AccrualPages = { defaultLimit: 50, maxLimit: 100 } as const;

export class ListAccrualsRequest {
  /** The same schema as an accrual's customer, so every customer that can earn points can be listed. */
  @Satisfies(AccrualFields.customerId, { example: 'c1' })
  customerId: string;

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

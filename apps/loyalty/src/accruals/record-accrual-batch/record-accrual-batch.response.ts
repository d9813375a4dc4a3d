import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ProblemDetails } from '@libs/http';
import { AccrualResponse } from '../accrual.response.js';

/** The answer to one accrual of a batch: what `POST /accruals` would have answered it. */
export class AccrualBatchResult {
  @ApiProperty({ description: 'The id the accrual was sent under' })
  id: string;

  @ApiProperty({
    description:
      '201 credited (now or before, with the same customer and points); 422 LOYALTY.ACCRUAL_MISMATCH; 503 credited by a concurrent request and not yet readable: send it again',
    example: 201,
  })
  status: number;

  @ApiPropertyOptional({
    description:
      'true when the order was credited before this request: the existing accrual is the answer (Idempotent-Replayed of POST /accruals)',
  })
  replayed?: true;

  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(AccrualResponse) }, { $ref: getSchemaPath(ProblemDetails) }] })
  body: AccrualResponse | ProblemDetails;
}

/** One result per accrual sent, in the order they were sent. */
export class AccrualBatchResponse {
  @ApiProperty({ type: [AccrualBatchResult] })
  results: AccrualBatchResult[];
}

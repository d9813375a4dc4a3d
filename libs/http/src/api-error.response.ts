import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The body of every 4xx this project answers, as the OpenAPI documents describe it. One shape for
 * validation, idempotency and domain errors, so a client needs one error parser: `code` is the
 * stable `DOMAIN.REASON` to branch on, `fields` names the inputs at fault.
 */
export class ApiErrorResponse {
  @ApiProperty({ description: 'HTTP status, repeated in the body', example: 400 })
  statusCode: number;

  @ApiPropertyOptional({ description: 'Status text', example: 'Bad Request' })
  error?: string;

  @ApiProperty({
    description: 'What went wrong: one message, or one per field problem',
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    example: ['items[0].quantity must not be greater than 1000'],
  })
  message: string | string[];

  @ApiPropertyOptional({ description: 'Stable error code, DOMAIN.REASON; kept across versions', example: 'ORDERS.NOT_FOUND' })
  code?: string;

  @ApiPropertyOptional({ description: 'Input fields (or headers) at fault, by full path', type: [String], example: ['items[0].quantity'] })
  fields?: string[];
}
